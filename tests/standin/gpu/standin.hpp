// What the GPU stand-ins share: the scenario file (ENVLOCK_STANDIN_GPU) and the call log. The
// stand-ins (libcuda.so.1, libnccl.so.2, libcublasLt.so.13) answer the calls envlock-verify makes
// from a scenario, on the CPU, so that the GPU checks' order, threads and verdicts are tested on
// machines without a GPU. They are test code: never installed, never loaded by a real run.
//
// Scenario, one setting a line ("#" starts a comment):
//   gpus N                  the number of GPUs (default 1)
//   name TEXT               their model (default "NVIDIA H200")
//   peer A B GBPS           the copy from GPU A to GPU B with peer access enabled (default 380)
//   no_peer_access A B      GPU A cannot reach GPU B's memory directly
//   rank A B N              the driver's performance rank of the pair (default 0)
//   staged_gbps GBPS        a copy between GPUs without peer access enabled (default 12)
//   host_to_device A GBPS   (default 55); device_to_host A GBPS (default 53)
//   hbm_gbps GBPS           the copy kernel's bandwidth, bytes read plus written (default 4000)
//   wrong_answer A          GPU A's known-answer kernel writes one wrong element
//   fail CALL N             the Nth call of CALL (a driver function's name) fails (719)
//   nccl_init_ms MS         ncclCommInitAll takes this long (default 0)
//   blas_create_ms MS       cublasLtCreate takes this long (default 0)
//   blas_max_n N            the largest product cuBLASLt finds an algorithm for (default 256)
//   log FILE                each call of interest is appended to FILE, after the monotonic
//                           time in nanoseconds: "123 cuEventRecord gpu 0"
// Operations on more than 8 MiB touch only the first and last 4 KiB (envlock-verify reads only
// those of large buffers), so that sizes of real GPUs cost no memory here.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace envlock::standin {

struct Scenario {
  int gpus = 1;
  std::string name = "NVIDIA H200";
  std::map<std::pair<int, int>, double> peer_gbps;
  std::map<std::pair<int, int>, bool> no_peer_access;
  std::map<std::pair<int, int>, int> rank;
  double staged_gbps = 12;
  std::map<int, double> host_to_device;
  std::map<int, double> device_to_host;
  double hbm_gbps = 4000;
  std::map<int, bool> wrong_answer;
  std::map<std::string, int> fail_at; // call -> the call number that fails
  int nccl_init_ms = 0;
  int blas_create_ms = 0;
  unsigned long long blas_max_n = 256; // NOLINT(google-runtime-int)
  std::string log;

  double peer(int a, int b) const {
    const auto found = peer_gbps.find({a, b});
    return found == peer_gbps.end() ? 380 : found->second;
  }
  bool can_access(int a, int b) const { return a != b && !no_peer_access.count({a, b}); }
  double h2d(int a) const { return host_to_device.count(a) ? host_to_device.at(a) : 55; }
  double d2h(int a) const { return device_to_host.count(a) ? device_to_host.at(a) : 53; }
};

inline const Scenario& scenario() {
  static const Scenario loaded = [] {
    Scenario s;
    const char* path = std::getenv("ENVLOCK_STANDIN_GPU");
    if (path == nullptr) {
      return s;
    }
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream words(line.substr(0, line.find('#')));
      std::string key;
      if (!(words >> key)) {
        continue;
      }
      int a = 0;
      int b = 0;
      double value = 0;
      if (key == "gpus") {
        words >> s.gpus;
      } else if (key == "name") {
        std::getline(words >> std::ws, s.name);
      } else if (key == "peer" && (words >> a >> b >> value)) {
        s.peer_gbps[{a, b}] = value;
      } else if (key == "no_peer_access" && (words >> a >> b)) {
        s.no_peer_access[{a, b}] = true;
      } else if (key == "rank" && (words >> a >> b >> value)) {
        s.rank[{a, b}] = static_cast<int>(value);
      } else if (key == "staged_gbps") {
        words >> s.staged_gbps;
      } else if (key == "host_to_device" && (words >> a >> value)) {
        s.host_to_device[a] = value;
      } else if (key == "device_to_host" && (words >> a >> value)) {
        s.device_to_host[a] = value;
      } else if (key == "hbm_gbps") {
        words >> s.hbm_gbps;
      } else if (key == "wrong_answer" && (words >> a)) {
        s.wrong_answer[a] = true;
      } else if (key == "fail") {
        std::string call;
        words >> call >> a;
        s.fail_at[call] = a;
      } else if (key == "nccl_init_ms") {
        words >> s.nccl_init_ms;
      } else if (key == "blas_create_ms") {
        words >> s.blas_create_ms;
      } else if (key == "blas_max_n") {
        words >> s.blas_max_n;
      } else if (key == "log") {
        words >> s.log;
      }
    }
    return s;
  }();
  return loaded;
}

// Appends "NANOSECONDS TEXT" to the scenario's log, if any.
inline void log(const std::string& text) {
  static std::mutex mutex;
  const auto& s = scenario();
  if (s.log.empty()) {
    return;
  }
  const auto now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                       std::chrono::steady_clock::now().time_since_epoch())
                       .count();
  const std::lock_guard<std::mutex> lock(mutex);
  if (FILE* file = std::fopen(s.log.c_str(), "a")) {
    std::fprintf(file, "%lld %s\n", static_cast<long long>(now), text.c_str()); // NOLINT
    std::fclose(file);
  }
}

inline void sleep_ms(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

// Copies as the stand-ins do: all of a small buffer, the ends of a large one.
constexpr std::size_t k_whole_limit = std::size_t{8} << 20;
constexpr std::size_t k_end_bytes = 4096;
inline void copy_bytes(void* dst, const void* src, std::size_t bytes) {
  if (bytes <= k_whole_limit) {
    std::memmove(dst, src, bytes);
    return;
  }
  std::memmove(dst, src, k_end_bytes);
  std::memmove(static_cast<char*>(dst) + bytes - k_end_bytes,
               static_cast<const char*>(src) + bytes - k_end_bytes, k_end_bytes);
}

// Calls f(index) for every element a stand-in touches of `count` elements of `size` bytes.
template <typename F> void each_touched(std::size_t count, std::size_t size, F f) {
  if (count * size <= k_whole_limit) {
    for (std::size_t i = 0; i < count; ++i) {
      f(i);
    }
    return;
  }
  const std::size_t ends = k_end_bytes / size;
  for (std::size_t i = 0; i < ends; ++i) {
    f(i);
    f(count - ends + i);
  }
}

} // namespace envlock::standin

// Exported by the libcuda stand-in for the other two: the GPU whose context is current on the
// calling thread (-1: none), and work enqueued on a stream that takes `seconds`.
extern "C" int envlock_standin_current_gpu();
extern "C" void envlock_standin_advance(void* stream, double seconds);
