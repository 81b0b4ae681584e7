// SHA-256 of a 2 GiB file: envlock's util::sha256_file_hex (OpenSSL back end) against
// `openssl dgst -sha256`. Prints both times and their ratio; asserts nothing about speed.
// Usage: bench_sha256 [FILE]  (without FILE a 2 GiB file is written to $TMPDIR and removed).
#include "util/fs.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

bool write_test_file(const std::filesystem::path& path, std::size_t mib) {
  std::vector<char> block(std::size_t{1} << 20);
  std::mt19937_64 rng(42);
  for (auto& c : block) {
    c = static_cast<char>(rng());
  }
  std::ofstream out(path, std::ios::binary);
  for (std::size_t i = 0; i < mib && out; ++i) {
    block[i % block.size()] ^= 1; // no two blocks alike
    out.write(block.data(), static_cast<std::streamsize>(block.size()));
  }
  return static_cast<bool>(out);
}

} // namespace

int main(int argc, char** argv) {
  const envlock::util::TempDir tmp = envlock::util::TempDir::create("envlock-bench-sha256").value();
  std::filesystem::path file = argc > 1 ? std::filesystem::path(argv[1]) : tmp.path() / "2g.bin";
  if (argc <= 1 && !write_test_file(file, 2048)) {
    std::fprintf(stderr, "cannot write %s\n", file.c_str());
    return 3;
  }
  double ours = 1e9;
  double theirs = 1e9;
  std::string ours_hex;
  std::string theirs_out;
  for (int round = 0; round < 3; ++round) { // best of three, page cache warm after the first
    auto start = Clock::now();
    auto hex = envlock::util::sha256_file_hex(file);
    ours = std::min(ours, seconds_since(start));
    if (!hex) {
      std::fprintf(stderr, "%s\n", hex.error().message.c_str());
      return 3;
    }
    ours_hex = *hex;
    start = Clock::now();
    auto run = envlock::util::run_process({"openssl", "dgst", "-sha256", "-r", file.string()});
    theirs = std::min(theirs, seconds_since(start));
    if (!run || run->exit_code != 0) {
      std::fprintf(stderr, "openssl dgst failed\n");
      return 3;
    }
    theirs_out = run->out;
  }
  const double gib = static_cast<double>(std::filesystem::file_size(file)) / (1024.0 * 1024 * 1024);
  std::printf("sha256 of %.2f GiB: envlock %.3f s (%.0f MiB/s), openssl dgst %.3f s; ratio %.3f\n",
              gib, ours, gib * 1024 / ours, theirs, ours / theirs);
  std::printf("digests %s\n", theirs_out.rfind(ours_hex, 0) == 0 ? "agree" : "DIFFER");
  return theirs_out.rfind(ours_hex, 0) == 0 ? 0 : 1;
}
