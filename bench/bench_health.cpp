// The cost of the health facts: `envlock node`'s facts read with and without them (the host's
// NVML, /sys, /proc and kernel log, or a tree and an NVML named by ENVLOCK_NODE_ROOT and
// ENVLOCK_NVML), and the judgement alone. Prints the medians of N runs; DCGM is left out.
// Usage: bench_health [RUNS]
#include "node/facts.hpp"
#include "node/health/judge.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

double median_ms(int runs, const std::function<void()>& work) {
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  envlock::node::HostSources with = envlock::node::host_sources_from_environment();
  with.dcgm = envlock::node::DcgmDiag::skip;
  envlock::node::HostSources without = with;
  without.health = envlock::node::HealthFacts::skip;
  nlohmann::json facts;
  const double full = median_ms(runs, [&] { facts = envlock::node::collect_host_facts(with); });
  const double bare = median_ms(runs, [&] { (void)envlock::node::collect_host_facts(without); });
  envlock::node::health::JudgeOptions options;
  options.gpus = envlock::node::health::GpusExpected::yes;
  std::size_t checks = 0;
  const double judge =
      median_ms(runs, [&] { checks = envlock::node::health::check_health(facts, options).size(); });
  const std::size_t gpus = facts.contains("health") ? facts["health"]["gpus"].size() : 0;
  std::printf("node facts with health: %.2f ms, without: %.2f ms (median of %d); health reading "
              "%.2f ms for %zu GPUs; judging %zu rules %.3f ms\n",
              full, bare, runs, full - bare, gpus, checks, judge);
  return 0;
}
