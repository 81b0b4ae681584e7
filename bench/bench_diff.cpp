// bench_diff: the time to read the two Megatron-LM locks and compute and render their diff
// (core_v0.18.2 -> core_v0.19.0), N runs; target <= 50 ms per whole diff. Prints figures only.
#include "diff/diff_render.hpp"
#include "diff/lock_diff.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
  const std::string dir = std::string(ENVLOCK_SOURCE_DIR) + "/tests/data/diff/";
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 50; // NOLINT(cert-err34-c)
  std::vector<double> read_ms;
  std::vector<double> diff_ms;
  std::vector<double> render_ms;
  std::size_t bytes = 0;
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    auto a = envlock::lock::read_lock(dir + "old.lock.json");
    auto b = envlock::lock::read_lock(dir + "new.lock.json");
    if (!a || !b) {
      std::fprintf(stderr, "bench_diff: cannot read the locks in %s\n", dir.c_str());
      return 3;
    }
    read_ms.push_back(ms_since(t0));
    t0 = std::chrono::steady_clock::now();
    envlock::diff::LockDiff d = envlock::diff::diff_locks(*a, *b);
    diff_ms.push_back(ms_since(t0));
    t0 = std::chrono::steady_clock::now();
    auto md = envlock::diff::render_diff(d, envlock::diff::DiffFormat::markdown);
    auto js = envlock::diff::render_diff(d, envlock::diff::DiffFormat::json);
    render_ms.push_back(ms_since(t0));
    bytes = (md ? md->size() : 0) + (js ? js->size() : 0);
  }
  std::printf("bench_diff: %d runs, Megatron-LM core_v0.18.2 -> core_v0.19.0\n", runs);
  std::printf("  read both locks   median %8.3f ms\n", median(read_ms));
  std::printf("  diff_locks        median %8.3f ms\n", median(diff_ms));
  std::printf("  render md + json  median %8.3f ms (%zu bytes)\n", median(render_ms), bytes);
  std::printf("  total             median %8.3f ms (target <= 50 ms)\n",
              median(read_ms) + median(diff_ms) + median(render_ms));
  return 0;
}
