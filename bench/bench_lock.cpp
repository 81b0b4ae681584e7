// Parsing Megatron-LM's uv.lock (about 1 MB): envlock's reader (the fast path envlock lock uses)
// next to the general TOML library (toml++). Target: at most 30 ms per parse.
// Usage: bench_lock [UV_LOCK] [ITERATIONS]
#include "util/fs.hpp"
#include "uv/uv_lock.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

// The median and the best of `n` runs of `step`, in milliseconds.
std::pair<double, double> time_runs(int n, const std::function<bool()>& step) {
  std::vector<double> ms;
  for (int i = 0; i < n; ++i) {
    const auto start = Clock::now();
    if (!step()) {
      std::fprintf(stderr, "bench_lock: parse failed\n");
      std::exit(1);
    }
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return {ms[ms.size() / 2], ms.front()};
}

} // namespace

int main(int argc, char** argv) {
  const std::filesystem::path path = argc > 1 ? std::filesystem::path(argv[1])
                                              : std::filesystem::path(ENVLOCK_SOURCE_DIR) /
                                                    "tests/data/megatron-lm/core_v0.19.0/uv.lock";
  const int n = argc > 2 ? std::max(1, std::atoi(argv[2])) : 20;
  const auto text = envlock::util::read_file(path);
  if (!text) {
    std::fprintf(stderr, "bench_lock: %s\n", text.error().message.c_str());
    return 2;
  }
  std::size_t packages = 0;
  const auto [fast_median, fast_best] = time_runs(n, [&] {
    const auto pin = envlock::uv::parse_uv_lock(*text, "uv.lock");
    packages = pin ? pin->packages.size() : 0;
    return pin.has_value();
  });
  const auto [toml_median, toml_best] =
      time_runs(n, [&] { return envlock::uv::parse_uv_lock_toml(*text, "uv.lock").has_value(); });
  std::printf("uv.lock: %zu bytes, %zu packages, %d runs each\n", text->size(), packages, n);
  std::printf("%-28s median %8.2f ms   best %8.2f ms   (target <= 30 ms)\n",
              "envlock parse_uv_lock", fast_median, fast_best);
  std::printf("%-28s median %8.2f ms   best %8.2f ms   (reference)\n", "toml++ 3.3 full parse",
              toml_median, toml_best);
  return 0;
}
