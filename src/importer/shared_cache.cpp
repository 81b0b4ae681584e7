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

std::string seconds_text(std::chrono::milliseconds waited) {
  char text[32];
  (void)std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(waited.count()) / 1000.0);
  return text;
}

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
  return owned_file_problem(st, path, read_only);
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

// Waits until no fill of `key` holds its lock, or `wait` has passed, saying so. Only root can
// open the lock (mode 0600): a user's get does not wait for a fill, it uses its own cache.
void wait_for_fill(const fs::path& shared, const std::string& key, std::chrono::seconds wait,
                   const std::function<void(const std::string&)>& note) {
  const fs::path lock = shared_lock(shared, key);
  const int raw = ::open(lock.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (raw < 0) {
    return;
  }
  const util::Fd fd(raw);
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0 || owned_file_problem(st, lock, false)) {
    return;
  }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  bool told = false;
  while (::flock(fd.get(), LOCK_SH | LOCK_NB) != 0) {
    if (std::chrono::steady_clock::now() >= deadline) {
      if (note) {
        note("warning: " + lock.string() + ": a fill still holds it after " +
             std::to_string(wait.count()) + " s; not waiting longer");
      }
      return;
    }
    if (!told && note) {
      note("waiting up to " + std::to_string(wait.count()) + " s for the fill holding " +
           lock.string());
      told = true;
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
  if (st.st_size > static_cast<off_t>(k_max_record_bytes)) {
    return env_error(path.string() + ": over " + std::to_string(k_max_record_bytes) + " bytes");
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
        return SharedHit{path, sha256, Checked::root_stamp};
      }
    }
  }
  if (!user_stamp.empty() && stamped_sha256(user_stamp, path, id) == sha256) {
    return SharedHit{path, sha256, Checked::caller_stamp};
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
  return SharedHit{path, sha256, Checked::hashed};
}

Status make_root_dir(const fs::path& dir, mode_t mode) {
  if (::mkdir(dir.c_str(), mode) != 0 && errno != EEXIST) {
    return env_error(dir.string() + ": cannot create: " + std::strerror(errno));
  }
  return require_trusted(dir, "the shared cache folder");
}

// The folder a fill is made in, SHARED/tmp/KEY.PID.XXXXXX, with the flock that marks it in use
// for as long as the fill runs (the kernel drops it when the fill dies, even by SIGKILL); removed
// when the fill ends, or by the next fill or scan when its fill died.
struct FillStage {
  util::TempDir dir;
  util::Fd lock;
};

Result<FillStage> make_fill_stage(const fs::path& shared, const std::string& key) {
  ENVLOCK_TRY_ASSIGN(
      util::TempDir dir,
      util::TempDir::create_in(shared / "tmp", key + "." + std::to_string(::getpid())));
  util::Fd lock(::open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!lock || ::flock(lock.get(), LOCK_EX | LOCK_NB) != 0) {
    return env_error(dir.path().string() + ": cannot lock: " + std::strerror(errno));
  }
  return FillStage{std::move(dir), std::move(lock)};
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

std::vector<fs::path> remove_stale_fills(const fs::path& shared) {
  std::vector<fs::path> removed;
  const fs::path tmp = shared / "tmp";
  if (::geteuid() != 0 || untrusted_because(tmp)) {
    return removed;
  }
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(tmp, ec)) {
    util::Fd dir(
        ::open(item.path().c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (dir && ::flock(dir.get(), LOCK_EX | LOCK_NB) == 0) {
      removed.push_back(item.path());
    }
  }
  for (const auto& path : removed) {
    fs::remove_all(path, ec);
  }
  return removed;
}

SharedLookup shared_lookup(const fs::path& shared, const std::string& key,
                           const std::string& expected_sha256, const Cache* own,
                           std::chrono::seconds wait,
                           const std::function<void(const std::string&)>& note) {
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
    wait_for_fill(shared, key, wait, note);
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
  const fs::path lock_path = shared_lock(job.shared, job.key);
  long waited_for = -1; // the holder waited for (0: unknown), -1: none
  ENVLOCK_TRY_ASSIGN(
      const FileLock lock,
      FileLock::acquire(
          lock_path, job.wait,
          [&](long holder) {
            if (holder < 0) {
              job.note("warning: " + lock_path.string() + " was held by " +
                       (holder < -1 ? "pid " + std::to_string(-holder) : std::string("a process")) +
                       " that is not root's: not waited for; the lock file "
                       "was replaced");
              return;
            }
            waited_for = holder;
            job.note("waiting up to " + std::to_string(job.wait.count()) +
                     " s for another fill of " + shown +
                     (holder > 0 ? " (pid " + std::to_string(holder) + ")" : ""));
          },
          LockOwner::root));
  if (waited_for >= 0) {
    job.note("waited " + seconds_text(lock.waited()) + " for another fill of " + shown +
             (waited_for > 0 ? " (pid " + std::to_string(waited_for) + ")" : ""));
  }
  for (const auto& stale : remove_stale_fills(job.shared)) {
    job.note("removed " + stale.string() + " (left by a fill that died)");
  }
  const SharedLookup found = shared_lookup(job.shared, job.key, job.expected.sha256, nullptr,
                                           std::chrono::seconds(0), nullptr);
  if (found.hit) {
    return *found.hit;
  }
  if (!found.problem.empty()) {
    job.note("warning: " + found.problem + "; filling it again");
  }
  ENVLOCK_TRY_ASSIGN(const FillStage stage, make_fill_stage(job.shared, job.key));
  const fs::path& stage_path = stage.dir.path();
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
  return SharedHit{shared_sqsh(job.shared, record.sha256), record.sha256, Checked::hashed, true};
}

} // namespace envlock::importer
