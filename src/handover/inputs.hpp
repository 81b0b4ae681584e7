// The records a handover is assembled from (lock, provenance, build and squashfs results, node
// facts, verification reports, the previous lock), named by file name only. The locks are read
// typed (lock::Lock); the other records, whose shape other tools may extend, as JSON.
#pragma once

#include "lock/lock.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::handover {

// One record file: its role ("lock", "provenance", ...), its file name (never a full path, so the
// handover does not depend on where the files lie), the sha256 of its bytes and its JSON.
struct Record {
  std::string role;
  std::string name;
  std::string sha256;
  nlohmann::json json;
};

// A lock record: the file, and the lock read from it.
struct LockRecord {
  Record record;
  lock::Lock lock;
};

// The paths given on the command line; empty means "not given".
struct RecordPaths {
  std::filesystem::path lock;
  std::filesystem::path provenance;
  std::filesystem::path build_result;
  std::filesystem::path squashfs_result;
  std::filesystem::path node;
  std::filesystem::path reports_dir; // every *.json in it, sorted by name
  std::filesystem::path previous_lock;
  std::filesystem::path rollback; // envlock rollback check --json (envlock.rollback-report/v1)
};

struct Records {
  std::optional<LockRecord> lock;
  std::optional<Record> provenance;
  std::optional<Record> build_result;
  std::optional<Record> squashfs_result;
  std::optional<Record> node;
  std::vector<Record> reports;
  std::optional<LockRecord> previous_lock;
  std::optional<Record> rollback;

  // Every record read, in a fixed order (for the handover's list of sources).
  [[nodiscard]] std::vector<const Record*> all() const;
};

// Reads the given files. Fails with an input error when a given file is missing, is not a JSON
// object, is a lock that does not read as one (lock::from_json's error), or when the reports
// folder cannot be listed.
Result<Records> read_records(const RecordPaths& paths);

} // namespace envlock::handover
