// What changed between two locks, in ML terms: base image, CUDA/NCCL/PyTorch/Python expectations,
// source commits, uv packages, build args, recipe, Enroot options, and the training sample and
// its launch. Pure: no I/O.
#pragma once

#include "lock/lock.hpp"

#include <optional>
#include <string>
#include <vector>

namespace envlock::diff {

// One changed field; an absent side is nothing (a key added or removed).
struct FieldChange {
  std::string field;
  std::optional<std::string> old_value;
  std::optional<std::string> new_value;
  bool operator==(const FieldChange&) const = default;
};

// A group of changed fields with a stable id ("base_image") and a title ("Base image").
struct Section {
  std::string id;
  std::string title;
  std::vector<FieldChange> changes;
  bool operator==(const Section&) const = default;
};

enum class PackageChangeKind { added, removed, upgraded, downgraded, changed };

// "added", "removed", "upgraded", "downgraded", "changed"
const char* to_string(PackageChangeKind kind);

// One uv package whose presence, version or source changed. A package locked at several versions
// (per-platform resolutions) lists its distinct versions in PEP 440 order and is "changed" when
// they differ; a package without a version (path, directory, virtual, editable sources) shows
// "(no version)".
struct PackageChange {
  std::string name;
  PackageChangeKind kind = PackageChangeKind::changed;
  std::string old_version; // "" when added; versions joined with ", " when several
  std::string new_version; // "" when removed
  // Only when the set of sources changed: "registry <index>", "git <location>", ... joined with
  // ", " (or "VERSION: SOURCES; ..." when the same versions and sources were paired differently).
  std::string old_source;
  std::string new_source;
  // When one version is locked from several sources and the set did not change: those sources.
  std::string sources;
  bool major = false;              // the first release segment changed
  std::optional<std::string> core; // what it replaces in the base image (core_packages.hpp)
  bool operator==(const PackageChange&) const = default;
};

// The commits between two revisions of a source repository (newest first), when it was readable.
struct CommitLog {
  std::string source;    // "megatron"
  std::string direction; // "ahead" (NEW descends from OLD), "behind", "diverged"
  std::size_t count = 0; // commits in OLD..NEW ("ahead") or NEW..OLD ("behind")
  std::vector<std::pair<std::string, std::string>> commits; // (short id, subject)
  std::string unavailable; // why the log could not be read ("" when it was)
};

struct LockDiff {
  std::string old_label; // "HEAD~1:envlock.lock.json", "old.lock.json"
  std::string new_label;
  std::vector<Section> sections;       // only sections with changes, in a fixed order
  std::vector<PackageChange> packages; // sorted by name
  std::vector<CommitLog> commit_logs;
  // One line per core dependency that NEW installs over the base image's own.
  std::vector<std::string> core_warnings;

  [[nodiscard]] bool empty() const { return sections.empty() && packages.empty(); }
};

// Compares two locks. Never fails.
LockDiff diff_locks(const lock::Lock& old_lock, const lock::Lock& new_lock);

} // namespace envlock::diff
