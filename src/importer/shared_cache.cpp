#include "importer/shared_cache.hpp"

#include "importer/envlock_tool.hpp"
#include "importer/file_lock.hpp"
#include "importer/import_image.hpp"
#include "importer/stamp.hpp"
#include "importer/trusted_path.hpp"
#include "util/fd.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

constexpr const char* const k_shared_folders[] = {"sqsh", "records", "stamps", "locks", "tmp"};
constexpr std::size_t k_max_record_bytes = std::size_t{64} * 1024;

fs::path shared_sqsh(const fs::path& shared, const std::string& sha256) {
  return shared / "sqsh" / (sha256 + ".sqsh");
}
fs::path shared_record_path(const fs::path& shared, const std::string& key) {
  return shared / "records" / (key + ".json");
}
fs::path shared_stamp(const fs::path& shared, const std::string& sha256) {
  return shared / "stamps" / (sha256 + ".json");
}
fs::path shared_lock(const fs::path& shared, const std::string& key) {
  return shared / "locks" / (key + ".lock");
}

// Why the open file `fd` (at `path`) is not root's own regular file, read-only when `read_only`.
std::optional<std::string> owned_problem(int fd, const fs::path& path, bool read_only,
                                         struct stat& st) {
  if (::fstat(fd, &st) != 0) {
    return path.string() + ": " + std::strerror(errno);
  }
  if (!S_ISREG(st.st_mode)) {
    return path.string() + ": not a regular file";
  }
  if (st.st_uid != 0) {
    return path.string() + ": owned by uid " + std::to_string(st.st_uid) + ", not root";
  }
  const mode_t forbidden = read_only ? (S_IWUSR | S_IWGRP | S_IWOTH) : (S_IWGRP | S_IWOTH);
  if ((st.st_mode & forbidden) != 0) {
    char mode[8];
    (void)std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return path.string() + ": writable (mode " + mode + ")";
  }
  return std::nullopt;
}

// Opens a file of the shared cache without following a link.
Result<util::Fd> open_entry(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
  if (fd < 0) {
    if (errno == ELOOP) {
      return env_error(path.string() + ": a symbolic link");
    }
    return env_error(path.string() + ": " + std::strerror(errno));
  }
  return util::Fd(fd);
}

// Waits until no fill of `key` holds its lock, or `wait` has passed.
void wait_for_fill(const fs::path& shared, const std::string& key, std::chrono::seconds wait) {
  const int raw = ::open(shared_lock(shared, key).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (raw < 0) {
    return;
  }
  const util::Fd fd(raw);
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (::flock(fd.get(), LOCK_SH | LOCK_NB) != 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      return;
    }
    if (!util::interruptible_sleep(std::chrono::milliseconds(50))) {
      return;
    }
  }
  (void)::flock(fd.get(), LOCK_UN);
}

// The record of `key`, checked to be root's; nothing when there is none.
Result<std::optional<formats::ImageRecord>> read_shared_record(const fs::path& shared,
                                                               const std::string& key) {
  const fs::path path = shared_record_path(shared, key);
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 && errno == ENOENT) {
    return std::optional<formats::ImageRecord>();
  }
  ENVLOCK_TRY_ASSIGN(const util::Fd fd, open_entry(path));
  if (auto problem = owned_problem(fd.get(), path, false, st)) {
    return env_error(*problem);
  }
  std::string text(static_cast<std::size_t>(std::min<off_t>(st.st_size, k_max_record_bytes)), 0);
  if (::pread(fd.get(), text.data(), text.size(), 0) != static_cast<ssize_t>(text.size())) {
    return env_error(path.string() + ": cannot read");
  }
  ENVLOCK_TRY_ASSIGN(const nlohmann::json value, util::parse_json(text, path.string()));
  ENVLOCK_TRY_ASSIGN(formats::ImageRecord record,
                     formats::from_json<formats::ImageRecord>(value, path.string()));
  if (record.sqsh_file != record.sha256 + ".sqsh" || record.sha256.size() != 64) {
    return env_error(path.string() + ": names " + record.sqsh_file +
                     ", not the file of its sha256 " + record.sha256);
  }
  return std::optional<formats::ImageRecord>(std::move(record));
}

// Checks the .sqsh the record names; the hit, or why it cannot be used.
Result<SharedHit> check_sqsh(const fs::path& shared, const std::string& sha256, const Cache* own) {
  const fs::path path = shared_sqsh(shared, sha256);
  const fs::path user_stamp = own == nullptr ? fs::path() : own->stamp(path);
  ENVLOCK_TRY_ASSIGN(const util::Fd fd, open_entry(path));
  struct stat st {};
  if (auto problem = owned_problem(fd.get(), path, true, st)) {
    return env_error(*problem);
  }
  const FileIdentity id = identity_of(st);
  const fs::path root_stamp = shared_stamp(shared, sha256);
  const int stamp_fd = ::open(root_stamp.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (stamp_fd >= 0) {
    const util::Fd stamp(stamp_fd);
    struct stat stamp_st {};
    if (!owned_problem(stamp.get(), root_stamp, false, stamp_st)) {
      if (stamped_sha256(root_stamp, path, id) == sha256) {
        return SharedHit{path, sha256, false};
      }
    }
  }
  if (!user_stamp.empty() && stamped_sha256(user_stamp, path, id) == sha256) {
    return SharedHit{path, sha256, false};
  }
  ENVLOCK_TRY_ASSIGN(const auto bytes, util::sha256_fd(fd.get(), path.string() + ": "));
  const std::string found = util::to_hex(bytes.data(), bytes.size());
  struct stat after {};
  if (::fstat(fd.get(), &after) != 0 || identity_of(after) != id) {
    return env_error(path.string() + ": changed while it was being hashed");
  }
  if (found != sha256) {
    return env_error(path.string() + ": sha256 " + found + ", not the " + sha256 +
                     " it is named by (replaced or corrupted after it was verified)");
  }
  if (!user_stamp.empty()) {
    (void)write_stamp_of(user_stamp, path, id, sha256);
  }
  return SharedHit{path, sha256, true};
}

Status make_root_dir(const fs::path& dir, mode_t mode) {
  if (::mkdir(dir.c_str(), mode) != 0 && errno != EEXIST) {
    return env_error(dir.string() + ": cannot create: " + std::strerror(errno));
  }
  return require_trusted(dir, "the shared cache folder");
}

// The folder a fill is made in: SHARED/tmp/KEY.PID.XXXXXX, removed when the fill ends.
Result<util::TempDir> make_fill_stage(const fs::path& shared, const std::string& key) {
  return util::TempDir::create_in(shared / "tmp", key + "." + std::to_string(::getpid()));
}

// Publishes the staged, verified .sqsh: read-only, stamped, renamed into sqsh/, then the record.
Status publish_shared(const FillJob& job, const fs::path& staged,
                      const formats::ImageRecord& record) {
  const fs::path target = shared_sqsh(job.shared, record.sha256);
  if (::chmod(staged.c_str(), 0444) != 0) {
    return env_error(staged.string() + ": chmod: " + std::strerror(errno));
  }
  if (std::rename(staged.c_str(), target.c_str()) != 0) {
    return env_error(target.string() + ": cannot publish: " + std::strerror(errno));
  }
  ENVLOCK_TRY_ASSIGN(const FileIdentity id, identify(target));
  ENVLOCK_TRY(
      write_stamp_of(shared_stamp(job.shared, record.sha256), target, id, record.sha256, 0644));
  formats::ImageRecord published = record;
  published.sqsh_file = record.sha256 + ".sqsh";
  return util::write_file_atomic(shared_record_path(job.shared, job.key),
                                 util::canonical_json(to_json(published)), 0644);
}

} // namespace

SharedLookup shared_lookup(const fs::path& shared, const std::string& key,
                           const std::string& expected_sha256, const Cache* own,
                           std::chrono::seconds wait) {
  SharedLookup out;
  if (auto problem = untrusted_because(shared)) {
    out.problem = "shared cache not used: " + *problem;
    return out;
  }
  for (const char* folder : {"sqsh", "records", "stamps"}) {
    if (auto problem = untrusted_because(shared / folder)) {
      out.problem = "shared cache not used: " + *problem;
      return out;
    }
  }
  auto record = read_shared_record(shared, key);
  if (record && !*record) {
    wait_for_fill(shared, key, wait);
    record = read_shared_record(shared, key);
  }
  if (!record) {
    out.problem = "shared cache entry not used: " + record.error().message;
    return out;
  }
  if (!*record) {
    return out;
  }
  const formats::ImageRecord& r = **record;
  if (!expected_sha256.empty() && r.sha256 != expected_sha256) {
    out.problem = "shared cache entry not used: " + shared_record_path(shared, key).string() +
                  " names sha256 " + r.sha256 + ", expected " + expected_sha256;
    return out;
  }
  auto hit = check_sqsh(shared, r.sha256, own);
  if (!hit) {
    out.problem = "shared cache entry not used: " + hit.error().message;
    return out;
  }
  out.hit = *hit;
  return out;
}

Result<SharedHit> shared_fill(const FillJob& job) {
  if (::geteuid() != 0) {
    return env_error("filling the shared cache " + job.shared.string() +
                     " needs root (the prolog, or envlock importer fill run by root)");
  }
  ENVLOCK_TRY(make_root_dir(job.shared, 0755));
  for (const char* folder : k_shared_folders) {
    ENVLOCK_TRY(make_root_dir(job.shared / folder, std::string(folder) == "tmp" ? 0700 : 0755));
  }
  const std::string shown = job.pin.image.name() + "@" + job.pin.platform_digest;
  ENVLOCK_TRY_ASSIGN(
      const FileLock lock,
      FileLock::acquire(shared_lock(job.shared, job.key), job.wait, [&](long holder) {
        job.note("waiting for another fill of " + shown +
                 (holder > 0 ? " (pid " + std::to_string(holder) + ")" : ""));
      }));
  (void)::chmod(shared_lock(job.shared, job.key).c_str(), 0644);
  const SharedLookup found =
      shared_lookup(job.shared, job.key, job.expected.sha256, nullptr, std::chrono::seconds(0));
  if (found.hit) {
    return *found.hit;
  }
  if (!found.problem.empty()) {
    job.note("warning: " + found.problem + "; filling it again");
  }
  ENVLOCK_TRY_ASSIGN(const util::TempDir stage, make_fill_stage(job.shared, job.key));
  const fs::path& stage_path = stage.path();
  oci::ImageRef ref = job.pin.image;
  ref.tag.clear();
  ref.digest = job.pin.platform_digest;
  job.note("importing " + ref.to_string() + " for " + job.pin.platform + " into " +
           job.shared.string());
  ENVLOCK_TRY_ASSIGN(const fs::path tool, envlock_tool());
  SquashRequest squash;
  squash.image = ref;
  squash.platform = job.pin.platform;
  squash.settings = job.pin.settings;
  squash.output = stage_path / "image.sqsh";
  squash.result = stage_path / formats::k_squashfs_result_file;
  squash.scratch = stage_path;
  squash.registry = job.registry;
  ENVLOCK_TRY_ASSIGN(const formats::SquashfsResult result,
                     run_squashfs(tool, squash, [&](const std::string& warning) {
                       job.note("warning: " + warning);
                     }));
  const formats::ImageRecord record = image_record_for(job.pin, job.expected, job.key, result);
  if (!job.expected.sha256.empty() && record.sha256 != job.expected.sha256) {
    return check_failed(ref.to_string() + ": the imported .sqsh has sha256 " + record.sha256 +
                        ", expected " + job.expected.sha256 + " (from " + job.expected.source +
                        "); not put in the shared cache");
  }
  ENVLOCK_TRY(publish_shared(job, squash.output, record));
  return SharedHit{shared_sqsh(job.shared, record.sha256), record.sha256, true};
}

} // namespace envlock::importer
