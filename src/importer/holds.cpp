#include "importer/holds.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

std::string safe(const char* value) {
  std::string out = value == nullptr ? "" : value;
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) {
      c = '_';
    }
  }
  return out;
}

std::string prefix_of(const JobStep& step) {
  return step.job + "." + step.step + ".";
}

// Seconds since the hold file was made (its mtime); -1 when it cannot be read.
std::int64_t age_of(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return -1;
  }
  return static_cast<std::int64_t>(std::time(nullptr)) - st.st_mtim.tv_sec;
}

} // namespace

JobStep job_step_from_environment() {
  JobStep step;
  step.job = safe(std::getenv("SLURM_JOB_ID"));
  step.step = safe(std::getenv("SLURM_STEP_ID"));
  if (step.step.empty()) {
    step.step = "none";
  }
  return step;
}

Status add_hold(const Cache& cache, const JobStep& step, const std::string& key) {
  if (step.job.empty()) {
    return {};
  }
  const fs::path path = cache.holds() / (prefix_of(step) + key);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    return env_error(path.string() + ": cannot create: " + std::strerror(errno));
  }
  ::close(fd);
  // A second get of the same job step renews the hold.
  (void)::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
  return {};
}

int release_holds(const Cache& cache, const JobStep& step) {
  if (step.job.empty()) {
    return 0;
  }
  int released = 0;
  std::error_code ec;
  std::vector<fs::path> mine;
  for (const auto& item : fs::directory_iterator(cache.holds(), ec)) {
    if (item.path().filename().string().starts_with(prefix_of(step))) {
      mine.push_back(item.path());
    }
  }
  for (const auto& path : mine) {
    if (fs::remove(path, ec)) {
      ++released;
    }
  }
  return released;
}

bool is_held(const Cache& cache, const std::string& key, std::int64_t expiry_seconds) {
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(cache.holds(), ec)) {
    const std::string name = item.path().filename().string();
    if (name.ends_with("." + key)) {
      const std::int64_t age = age_of(item.path());
      if (age >= 0 && age < expiry_seconds) {
        return true;
      }
    }
  }
  return false;
}

void remove_expired_holds(const Cache& cache, std::int64_t expiry_seconds) {
  std::error_code ec;
  std::vector<fs::path> expired;
  for (const auto& item : fs::directory_iterator(cache.holds(), ec)) {
    if (age_of(item.path()) >= expiry_seconds) {
      expired.push_back(item.path());
    }
  }
  for (const auto& path : expired) {
    fs::remove(path, ec);
  }
}

} // namespace envlock::importer
