// What goes into the build context, before any byte is written: every entry's path, kind, mode and
// where its bytes come from (text envlock made, a local file, or a blob of the Megatron-LM
// repository at the locked commit). docs/manual/context.md describes the layout.
#pragma once

#include "build/template_context.hpp"
#include "lock/lock.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace envlock::build {

enum class EntryKind { directory, file, symlink };

struct ContextEntry {
  std::string path; // slash-separated, relative, no trailing slash
  EntryKind kind = EntryKind::file;
  unsigned mode = 0644; // 0644 or 0755 for files; folders are 0755 and links 0777 in the tar
  std::string data;     // the file's bytes or the link's target, when `blob` is empty
  std::string blob;     // a blob of ContextPlan::repository holding them instead
  bool operator==(const ContextEntry&) const = default;
};

struct ContextPlan {
  std::vector<ContextEntry> entries; // sorted by path; every parent folder listed
  std::string dockerfile;            // the rendered Dockerfile's path among them
  std::filesystem::path repository;  // the Megatron-LM repository the blobs come from
  std::int64_t mtime = 0;            // the lock's source_date_epoch
};

// Which recipe the Dockerfile comes from: envlock's template, or an upstream Dockerfile.
enum class RecipeKind { template_file, upstream };

// Where things go in the context (folder prefixes end in '/'; "" is the root). The template
// recipe: Dockerfile, python/, megatron-lm/, files/, envlock/. The upstream recipe expects
// Megatron-LM's tree at the root (its COPY lines name the tree's paths): the tree at the root, the
// project's pyproject.toml and uv.lock in place of the tree's own, and envlock's files under
// .envlock/.
struct ContextLayout {
  std::string dockerfile; // the rendered Dockerfile
  std::string python;     // pyproject.toml and uv.lock
  std::string megatron;   // the Megatron-LM tree
  std::string files;      // the files of build.context
  std::string envlock;    // envlock-verify and lock.json
};

ContextLayout context_layout(RecipeKind kind);

// The manifest's folder: the lock's folder joined with the folder of lock.manifest_path.
std::filesystem::path manifest_dir(const lock::Lock& lock, const std::filesystem::path& lock_path);

struct ContextOptions {
  Verifier verifier = Verifier::omit;
  // A local clone holding sources.megatron.commit; needed when the lock names a remote URL.
  std::optional<std::filesystem::path> megatron_repo;
  // Every entry's mtime (and the build's SOURCE_DATE_EPOCH) instead of the lock's
  // enroot.source_date_epoch: --source-date-epoch or SOURCE_DATE_EPOCH.
  std::optional<std::int64_t> source_date_epoch;
};

// The plan for `lock` (read from `lock_path`, whose folder locates the manifest's folder) with the
// rendered `dockerfile`. Fails (exit 2) when the lock has no sources.megatron, when its repository
// is remote and no --megatron-repo is given, or a file cannot be read; (exit 1) when
// pyproject.toml, uv.lock or a build.context file no longer has the sha256 the lock recorded; (exit
// 3) when envlock-verify is wanted but not found beside the running executable.
Result<ContextPlan> plan_context(const lock::Lock& lock, const std::filesystem::path& lock_path,
                                 const std::string& dockerfile, const ContextOptions& options);

// Adds every missing parent folder of the entries, and sorts them by path.
void complete_and_sort(std::vector<ContextEntry>& entries);

} // namespace envlock::build
