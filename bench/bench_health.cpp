// The cost of the health facts: `envlock node`'s facts read with and without them, no program
// run (the tools' --version answers are the same either way and would drown the difference), the
// kernel log read alone (/dev/kmsg, else dmesg, which is a program), and the judgement alone. On
// the host's NVML, /sys, /proc and kernel log, or a tree and an NVML named by ENVLOCK_NODE_ROOT
// and ENVLOCK_NVML. Medians of N runs, the two fact reads interleaved; DCGM is left out.
// Usage: bench_health [RUNS]
#include "node/facts.hpp"
#include "node/health/judge.hpp"
#include "node/health/kernel_log.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

namespace {

double elapsed_ms(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  namespace node = envlock::node;
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 20;
  node::HostSources with = node::host_sources_from_environment();
  with.run_programs = false;
  with.dcgm = node::DcgmDiag::skip;
  node::HostSources without = with;
  without.health = node::HealthFacts::skip;
  nlohmann::json facts;
  std::vector<double> with_ms;
  std::vector<double> without_ms;
  std::vector<double> log_ms;
  std::size_t xids = 0;
  std::string log_source;
  for (int i = 0; i < runs; ++i) {
    with_ms.push_back(elapsed_ms([&] { facts = node::collect_host_facts(with); }));
    without_ms.push_back(elapsed_ms([&] { (void)node::collect_host_facts(without); }));
    log_ms.push_back(elapsed_ms([&] {
      const auto log = node::health::read_kernel_log(with.root, node::health::RunDmesg::yes);
      xids = node::health::parse_xids(log).size();
      log_source = log.missing.empty() ? log.source : "unreadable: " + log.missing;
    }));
  }
  node::health::JudgeOptions options;
  options.gpus = node::health::GpusExpected::yes;
  std::vector<double> judge_ms;
  std::size_t checks = 0;
  for (int i = 0; i < runs; ++i) {
    judge_ms.push_back(
        elapsed_ms([&] { checks = node::health::check_health(facts, options).size(); }));
  }
  const std::size_t gpus = facts.contains("health") ? facts["health"]["gpus"].size() : 0;
  std::printf("node facts without programs (median of %d): with health %.2f ms, without %.2f ms: "
              "health reading %.2f ms for %zu GPUs\n",
              runs, median(with_ms), median(without_ms), median(with_ms) - median(without_ms),
              gpus);
  std::printf("kernel log alone (%s): %.2f ms, %zu XIDs; judging %zu rules: %.3f ms\n",
              log_source.c_str(), median(log_ms), xids, checks, median(judge_ms));
  return 0;
}
