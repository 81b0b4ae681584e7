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

Result<Record> read_record(const std::string& role, const fs::path& path) {
  ENVLOCK_TRY_ASSIGN(const std::string bytes, util::read_file_limited(path, k_record_limit));
  ENVLOCK_TRY_ASSIGN(nlohmann::json value, util::parse_json(bytes, path.string()));
  if (!value.is_object()) {
    return input_error(path.string() + ": not a JSON object");
  }
  return Record{role, path.filename().string(), util::sha256_hex(bytes), std::move(value)};
}

Result<std::optional<Record>> read_optional(const std::string& role, const fs::path& path) {
  if (path.empty()) {
    return std::optional<Record>();
  }
  ENVLOCK_TRY_ASSIGN(Record r, read_record(role, path));
  return std::optional<Record>(std::move(r));
}

Result<std::optional<LockRecord>> read_lock_record(const std::string& role, const fs::path& path) {
  if (path.empty()) {
    return std::optional<LockRecord>();
  }
  ENVLOCK_TRY_ASSIGN(Record record, read_record(role, path));
  ENVLOCK_TRY_ASSIGN(lock::Lock lock, lock::from_json(record.json, path.string()));
  return std::optional<LockRecord>(LockRecord{std::move(record), std::move(lock)});
}

Result<std::vector<Record>> read_reports(const fs::path& dir) {
  std::vector<Record> out;
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
    ENVLOCK_TRY_ASSIGN(Record r, read_record("report", f));
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
  for (const auto* r : {&provenance, &build_result, &squashfs_result, &node}) {
    if (r->has_value()) {
      out.push_back(&**r);
    }
  }
  for (const auto& r : reports) {
    out.push_back(&r);
  }
  if (previous_lock) {
    out.push_back(&previous_lock->record);
  }
  if (rollback) {
    out.push_back(&*rollback);
  }
  return out;
}

Result<Records> read_records(const RecordPaths& paths) {
  Records r;
  ENVLOCK_TRY_ASSIGN(r.lock, read_lock_record("lock", paths.lock));
  ENVLOCK_TRY_ASSIGN(r.provenance, read_optional("provenance", paths.provenance));
  ENVLOCK_TRY_ASSIGN(r.build_result, read_optional("build-result", paths.build_result));
  ENVLOCK_TRY_ASSIGN(r.squashfs_result, read_optional("squashfs-result", paths.squashfs_result));
  ENVLOCK_TRY_ASSIGN(r.node, read_optional("node", paths.node));
  ENVLOCK_TRY_ASSIGN(r.reports, read_reports(paths.reports_dir));
  ENVLOCK_TRY_ASSIGN(r.previous_lock, read_lock_record("previous-lock", paths.previous_lock));
  ENVLOCK_TRY_ASSIGN(r.rollback, read_optional("rollback", paths.rollback));
  if (r.rollback && r.rollback->json.value("schema", "") != "envlock.rollback-report/v1") {
    return input_error(paths.rollback.string() +
                       ": not a rollback report (schema envlock.rollback-report/v1): write it "
                       "with envlock rollback check --json");
  }
  return r;
}

} // namespace envlock::handover
