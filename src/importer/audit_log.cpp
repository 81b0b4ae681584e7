#include "importer/audit_log.hpp"

#include "importer/trusted_path.hpp"
#include "util/fd.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <syslog.h>
#include <unistd.h>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t k_max_log_bytes = std::uintmax_t{1} << 30;

std::string variable(const char* name) {
  const char* value = std::getenv(name); // NOLINT(concurrency-mt-unsafe): read-only use
  return value == nullptr ? std::string() : std::string(value);
}

std::string now_text() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char text[96];
  (void)std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900,
                      utc.tm_mon + 1, utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec,
                      static_cast<int>(millis));
  return text;
}

std::string host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string();
}

std::string user_name(uid_t uid) {
  struct passwd entry {};
  struct passwd* found = nullptr;
  char buffer[4096];
  if (::getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found != nullptr) {
    return found->pw_name;
  }
  return {};
}

int priority_of(const AuditEntry& entry) {
  if (entry.outcome != AuditOutcome::ok) {
    return LOG_ERR;
  }
  return entry.warnings.empty() ? LOG_INFO : LOG_WARNING;
}

} // namespace

AuditEntry new_audit_entry(const std::string& command) {
  AuditEntry e;
  e.time = now_text();
  e.node = variable("SLURMD_NODENAME");
  if (e.node.empty()) {
    e.node = host_name();
  }
  e.job = variable("SLURM_JOB_ID");
  e.step = e.job.empty() ? std::string() : variable("SLURM_STEP_ID");
  e.job_claimed = ::getuid() != 0 && !e.job.empty();
  e.uid = static_cast<std::uint32_t>(::getuid());
  e.user = user_name(::getuid());
  e.command = command;
  return e;
}

namespace {

// Only root's own steps (prolog, fill, scan, check, root's get) write the file.
bool writes_the_file() {
  return ::getuid() == 0 && ::geteuid() == 0;
}

// Root's descriptor of the log: the path walked (trusted_path.hpp) up to its folder, the file
// opened there without following a link or blocking (a FIFO), and checked to be root's own
// regular file that no one else can write.
Result<util::Fd> open_log(const fs::path& log) {
  const fs::path absolute = fs::absolute(log).lexically_normal();
  ENVLOCK_TRY_ASSIGN(const TrustedEntry folder,
                     open_trusted(absolute.parent_path(), EntryKind::folder));
  util::Fd fd(::openat(folder.fd.get(), absolute.filename().c_str(),
                       O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY));
  if (!fd) {
    return env_error(absolute.string() + ": " +
                     (errno == ELOOP ? std::string("a symbolic link") : std::strerror(errno)));
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return env_error(absolute.string() + ": " + std::strerror(errno));
  }
  if (auto problem = owned_file_problem(st, absolute, false)) {
    return env_error(*problem);
  }
  return fd;
}

} // namespace

std::string append_audit(const fs::path& log, const AuditEntry& given) {
  AuditEntry entry = given;
  entry.time = now_text();
  const std::string line = audit_line(entry);
  ::openlog("envlock-importer", LOG_PID, LOG_USER);
  ::syslog(priority_of(entry), "%.*s", static_cast<int>(line.size() - 1), line.data());
  ::closelog();
  if (log.empty() || !writes_the_file()) {
    return {};
  }
  auto fd = open_log(log);
  if (!fd) {
    return log.string() + ": not written: " + fd.error().message +
           " (root's lines go only to a file of root's that no one else can write)";
  }
  const ssize_t written = ::write(fd->get(), line.data(), line.size());
  if (written != static_cast<ssize_t>(line.size())) {
    return log.string() + ": cannot append: " +
           (written < 0 ? std::string(std::strerror(errno)) : std::string("short write"));
  }
  return {};
}

Result<AuditLog> read_audit_log(const fs::path& log) {
  ENVLOCK_TRY_ASSIGN(const std::string text, util::read_file_limited(log, k_max_log_bytes));
  AuditLog out;
  const auto lines = util::split(text, '\n');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (util::trim(lines[i]).empty()) {
      continue;
    }
    const std::string origin = log.string() + ":" + std::to_string(i + 1);
    auto value = util::parse_json(lines[i], origin);
    if (!value) {
      out.problems.push_back(origin + ": not a JSON line");
      continue;
    }
    auto entry = audit_from_json(*value, origin);
    if (!entry) {
      out.problems.push_back(entry.error().message);
      continue;
    }
    out.entries.push_back(std::move(*entry));
  }
  return out;
}

} // namespace envlock::importer
