// The records a handover is assembled from (lock, provenance, build and squashfs results, node
// facts, verification reports, the previous lock, the rollback report), named by file name
// only. Every record is read typed, by its own reader (lock/lock.hpp, formats/*.hpp): a record
// that is not what its option names is refused with the reader's words, never guessed at.
#pragma once

#include "formats/build_result.hpp"
#include "formats/node_facts.hpp"
#include "formats/provenance.hpp"
#include "formats/report.hpp"
#include "formats/rollback_report.hpp"
#include "formats/squashfs_result.hpp"
#include "lock/lock.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace envlock::handover {

// One record file: its role ("lock", "provenance", ...), its file name (never a full path, so the
// handover does not depend on where the files lie) and the sha256 of its bytes.
struct Record {
  std::string role;
  std::string name;
  std::string sha256;
};

// A record file and what it holds, read by the record's own reader.
template <class T> struct Read {
  Record record;
  T value;
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
  std::filesystem::path rollback; // envlock rollback check -o FILE (envlock.rollback-report/v1)
};

struct Records {
  std::optional<LockRecord> lock;
  std::optional<Read<formats::Statement>> provenance;
  std::optional<Read<formats::BuildResult>> build_result;
  std::optional<Read<formats::SquashfsResult>> squashfs_result;
  std::optional<Read<formats::NodeFacts>> node;
  std::vector<Read<formats::Report>> reports;
  std::optional<LockRecord> previous_lock;
  std::optional<Read<formats::RollbackReport>> rollback;

  // Every record read, in a fixed order (for the handover's list of sources).
  [[nodiscard]] std::vector<const Record*> all() const;
};

// Reads the given files. Fails with an input error when a given file is missing or does not read
// as the record its option names (the reader's error, naming the file and the field), or when
// the reports folder cannot be listed.
Result<Records> read_records(const RecordPaths& paths);

} // namespace envlock::handover
