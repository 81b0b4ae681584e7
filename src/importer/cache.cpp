#include "importer/cache.hpp"

#include "formats/image_record.hpp"
#include "importer/trusted_path.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

const char* const k_folders[] = {"images", "locks", "stamps", "holds", "tmp", "quarantine"};

Status make_private_dir(const fs::path& dir, uid_t uid) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return env_error(dir.string() + ": cannot create: " + std::strerror(errno));
  }
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    return env_error(dir.string() + ": " + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) {
    return env_error(dir.string() + ": not a folder");
  }
  if (st.st_uid != uid || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return env_error(dir.string() + ": owned by uid " + std::to_string(st.st_uid) + " with mode " +
                     mode_text(st.st_mode) + "; the cache of uid " + std::to_string(uid) +
                     " must be its own and writable by it alone");
  }
  return {};
}

// The pid in an import folder's name tmp/KEY.PID.XXXXXX, or 0.
long pid_of(const std::string& name) {
  const auto parts = util::split(name, '.');
  if (parts.size() != 3) {
    return 0;
  }
  try {
    return std::stol(parts[1]);
  } catch (const std::exception&) {
    return 0;
  }
}

} // namespace

Result<Cache> Cache::open(const fs::path& root, uid_t uid) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return env_error(root.string() + ": the cache folder does not exist (create it, e.g. mode "
                                     "1777 like /tmp, so every user can have a folder in it)");
  }
  const fs::path dir = root / std::to_string(uid);
  ENVLOCK_TRY(make_private_dir(dir, uid));
  for (const char* folder : k_folders) {
    if (::mkdir((dir / folder).c_str(), 0700) != 0 && errno != EEXIST) {
      return env_error((dir / folder).string() + ": cannot create: " + std::strerror(errno));
    }
  }
  return Cache(dir);
}

fs::path Cache::image(const std::string& key) const {
  return m_dir / "images" / (key + ".sqsh");
}

fs::path Cache::record(const std::string& key) const {
  return formats::image_record_path_for(image(key));
}

fs::path Cache::lock(const std::string& key) const {
  return m_dir / "locks" / (key + ".lock");
}

fs::path Cache::quarantine(const std::string& key) const {
  return m_dir / "quarantine" / (key + ".sqsh");
}

fs::path Cache::stamp(const fs::path& file) const {
  return m_dir / "stamps" / (util::sha256_hex(fs::absolute(file).string()).substr(0, 32) + ".json");
}

std::string cache_key(const std::string& manifest_digest, const std::string& platform,
                      const squashfs::SquashSettings& settings) {
  const std::string hex =
      manifest_digest.starts_with("sha256:") ? manifest_digest.substr(7) : manifest_digest;
  const std::string how =
      platform + "\n" + settings.squash_options + "\n" + std::to_string(settings.source_date_epoch);
  return "sha256-" + hex + "-" + util::sha256_hex(how).substr(0, 12);
}

Result<fs::path> quarantine_image(const Cache& cache, const std::string& key,
                                  const fs::path& sqsh) {
  const fs::path target = cache.quarantine(key);
  if (std::rename(sqsh.c_str(), target.c_str()) != 0) {
    return env_error(sqsh.string() + ": cannot move to " + target.string() + ": " +
                     std::strerror(errno));
  }
  std::error_code ec;
  const fs::path record = sqsh.string() + ".json";
  if (fs::exists(record, ec)) {
    fs::rename(record, target.string() + ".json", ec);
  }
  fs::remove(cache.stamp(sqsh), ec);
  return target;
}

void remove_stale_imports(const Cache& cache, const std::string& key) {
  std::error_code ec;
  std::vector<fs::path> stale;
  for (const auto& item : fs::directory_iterator(cache.tmp(), ec)) {
    const std::string name = item.path().filename().string();
    const long pid = pid_of(name);
    const bool dead = pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
    if ((!key.empty() && name.starts_with(key + ".")) || dead) {
      stale.push_back(item.path());
    }
  }
  for (const auto& path : stale) {
    fs::remove_all(path, ec);
  }
}

void touch_used(const Cache& cache, const std::string& key) {
  (void)::utimensat(AT_FDCWD, cache.record(key).c_str(), nullptr, 0);
}

} // namespace envlock::importer
