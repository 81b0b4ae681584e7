#include "importer/stamp.hpp"

#include "formats/schemas.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>

namespace envlock::importer {

namespace {

constexpr const char* k_stamp_schema = formats::k_verified_stamp_schema;

std::int64_t nanoseconds(const struct timespec& t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

nlohmann::json stamp_json(const std::filesystem::path& path, const FileIdentity& id,
                          const std::string& sha256) {
  return {{"schema", k_stamp_schema}, {"path", path.string()},  {"sha256", sha256},
          {"device", id.device},      {"inode", id.inode},      {"size", id.size},
          {"mtime_ns", id.mtime_ns},  {"ctime_ns", id.ctime_ns}};
}

} // namespace

std::optional<std::string> stamped_sha256(const std::filesystem::path& stamp,
                                          const std::filesystem::path& path,
                                          const FileIdentity& id) {
  if (!util::path_exists(stamp)) {
    return std::nullopt;
  }
  auto text = util::read_file_limited(stamp, std::uintmax_t{64} * 1024);
  if (!text) {
    return std::nullopt;
  }
  auto value = util::parse_json(*text, stamp.string());
  if (!value || *value != stamp_json(path, id, value->value("sha256", ""))) {
    return std::nullopt;
  }
  const std::string sha = (*value)["sha256"];
  if (sha.size() != 64) {
    return std::nullopt;
  }
  return sha;
}

const char* to_string(Checked checked) {
  switch (checked) {
  case Checked::hashed:
    return "hashed";
  case Checked::root_stamp:
    return "root stamp";
  case Checked::caller_stamp:
    return "caller stamp";
  }
  return "hashed";
}

FileIdentity identity_of(const struct stat& st) {
  return FileIdentity{static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
                      static_cast<std::uint64_t>(st.st_size), nanoseconds(st.st_mtim),
                      nanoseconds(st.st_ctim)};
}

Status write_stamp_of(const std::filesystem::path& stamp, const std::filesystem::path& path,
                      const FileIdentity& id, const std::string& sha256, unsigned mode) {
  return util::write_file_atomic(stamp, util::canonical_json(stamp_json(path, id, sha256)), mode);
}

Result<FileIdentity> identify(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      return input_error(path.string() + ": no such file");
    }
    return env_error(path.string() + ": " + std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return input_error(path.string() + ": not a regular file");
  }
  return identity_of(st);
}

Result<Hashed> verified_sha256(const std::filesystem::path& path,
                               const std::filesystem::path& stamp) {
  ENVLOCK_TRY_ASSIGN(const FileIdentity before, identify(path));
  if (auto sha = stamp.empty() ? std::nullopt : stamped_sha256(stamp, path, before)) {
    return Hashed{*sha, before.size, true};
  }
  ENVLOCK_TRY_ASSIGN(const std::string sha, util::sha256_file_hex(path));
  ENVLOCK_TRY_ASSIGN(const FileIdentity after, identify(path));
  if (after != before) {
    return env_error(path.string() + ": changed while it was being hashed");
  }
  if (stamp.empty()) {
    return Hashed{sha, after.size, false};
  }
  ENVLOCK_TRY(
      util::write_file_atomic(stamp, util::canonical_json(stamp_json(path, after, sha)), 0600));
  return Hashed{sha, after.size, false};
}

Status write_stamp(const std::filesystem::path& stamp, const std::filesystem::path& path,
                   const std::string& sha256) {
  ENVLOCK_TRY_ASSIGN(const FileIdentity id, identify(path));
  return util::write_file_atomic(stamp, util::canonical_json(stamp_json(path, id, sha256)), 0600);
}

} // namespace envlock::importer
