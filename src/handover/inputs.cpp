#include "handover/inputs.hpp"

#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

#include <algorithm>
#include <system_error>

namespace envlock::handover {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t k_record_limit = 64U << 20U;

// The file's identity and its JSON.
struct File {
  Record record;
  nlohmann::json value;
};

Result<File> read_file(const std::string& role, const fs::path& path) {
  ENVLOCK_TRY_ASSIGN(const std::string bytes, util::read_file_limited(path, k_record_limit));
  ENVLOCK_TRY_ASSIGN(nlohmann::json value, util::parse_json(bytes, path.string()));
  return File{Record{role, path.filename().string(), util::sha256_hex(bytes)}, std::move(value)};
}

template <class T> Result<Read<T>> read_typed(const std::string& role, const fs::path& path) {
  ENVLOCK_TRY_ASSIGN(File file, read_file(role, path));
  ENVLOCK_TRY_ASSIGN(T value, formats::from_json<T>(file.value, path.string()));
  return Read<T>{std::move(file.record), std::move(value)};
}

template <class T>
Result<std::optional<Read<T>>> read_optional(const std::string& role, const fs::path& path) {
  if (path.empty()) {
    return std::optional<Read<T>>();
  }
  ENVLOCK_TRY_ASSIGN(Read<T> read, read_typed<T>(role, path));
  return std::optional<Read<T>>(std::move(read));
}

Result<std::optional<LockRecord>> read_lock_record(const std::string& role, const fs::path& path) {
  if (path.empty()) {
    return std::optional<LockRecord>();
  }
  ENVLOCK_TRY_ASSIGN(File file, read_file(role, path));
  ENVLOCK_TRY_ASSIGN(lock::Lock lock, lock::from_json(file.value, path.string()));
  return std::optional<LockRecord>(LockRecord{std::move(file.record), std::move(lock)});
}

Result<std::vector<Read<formats::Report>>> read_reports(const fs::path& dir) {
  std::vector<Read<formats::Report>> out;
  if (dir.empty()) {
    return out;
  }
  std::error_code ec;
  std::vector<fs::path> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".json" && it->is_regular_file(ec)) {
      files.push_back(it->path());
    }
  }
  if (ec) {
    return input_error(dir.string() + ": " + ec.message());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    ENVLOCK_TRY_ASSIGN(Read<formats::Report> r, read_typed<formats::Report>("report", f));
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace

std::vector<const Record*> Records::all() const {
  std::vector<const Record*> out;
  if (lock) {
    out.push_back(&lock->record);
  }
  if (provenance) {
    out.push_back(&provenance->record);
  }
  if (build_result) {
    out.push_back(&build_result->record);
  }
  if (squashfs_result) {
    out.push_back(&squashfs_result->record);
  }
  if (node) {
    out.push_back(&node->record);
  }
  for (const auto& r : reports) {
    out.push_back(&r.record);
  }
  if (previous_lock) {
    out.push_back(&previous_lock->record);
  }
  if (rollback) {
    out.push_back(&rollback->record);
  }
  return out;
}

Result<Records> read_records(const RecordPaths& paths) {
  Records r;
  ENVLOCK_TRY_ASSIGN(r.lock, read_lock_record("lock", paths.lock));
  ENVLOCK_TRY_ASSIGN(r.provenance,
                     read_optional<formats::Statement>("provenance", paths.provenance));
  ENVLOCK_TRY_ASSIGN(r.build_result,
                     read_optional<formats::BuildResult>("build-result", paths.build_result));
  ENVLOCK_TRY_ASSIGN(r.squashfs_result, read_optional<formats::SquashfsResult>(
                                            "squashfs-result", paths.squashfs_result));
  ENVLOCK_TRY_ASSIGN(r.node, read_optional<formats::NodeFacts>("node", paths.node));
  ENVLOCK_TRY_ASSIGN(r.reports, read_reports(paths.reports_dir));
  ENVLOCK_TRY_ASSIGN(r.previous_lock, read_lock_record("previous-lock", paths.previous_lock));
  ENVLOCK_TRY_ASSIGN(r.rollback,
                     read_optional<formats::RollbackReport>("rollback", paths.rollback));
  return r;
}

} // namespace envlock::handover
