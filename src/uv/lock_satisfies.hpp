// Does uv.lock still describe the project? The comparison `uv lock --check` and `uv sync
// --locked` make before they trust a lock (uv's `ValidatedLock::validate` and `Lock::satisfies`),
// rule by rule: the workspace members and whether each is virtual or editable; the [manifest]
// requirements, constraints, overrides, excludes, build constraints, dependency groups of a root
// without [project], and static dependency metadata; requires-python as a range; then, for the
// workspace members and every local package they reach, its version, extras, requires-dist and
// dependency groups against its own pyproject.toml. Every requirement is first lowered through
// tool.uv.sources, as uv lowers it, then normalized as uv's `normalize_requirement` does
// (credentials and URL fragments dropped, paths made relative to the workspace root, markers
// compared by meaning within the lock's requires-python).
#pragma once

#include "util/result.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::uv {

struct Unsatisfied {
  // "pyproject.toml:29:17: [project.dependencies] requires 'torch>=2.7.0', uv.lock recorded
  // 'torch>=2.6.0'", one line per requirement that moved.
  std::string message;
};

struct SatisfiesResult {
  std::vector<Unsatisfied> moved; // empty: uv.lock still satisfies pyproject.toml
  std::vector<std::string> notes; // what was not compared, and why
  // The packages uv.lock locks that `uv sync` never installs, normalized, sorted: those its
  // [manifest] overrides keep out (Megatron-LM's "torch; sys_platform == 'never'", so that the
  // base image's own is used), and those that no workspace member reaches but through them or
  // through a dependency marked "sys_platform == 'never'". Empty when uv.lock names no workspace
  // member (a package whose source is editable or virtual).
  std::vector<std::string> never_installed;
};

// The workspace's other files, as uv reads them while it checks a lock: the pyproject.toml of a
// member or of a local package. Paths are relative to the folder that holds the root
// pyproject.toml, with "/" between names.
struct ProjectFiles {
  // The file's text; nothing when it is not there; an error when it cannot be read.
  std::function<Result<std::optional<std::string>>(const std::string& path)> read;
  // The names of the folders in a folder; nothing when it is not a folder.
  std::function<std::optional<std::vector<std::string>>(const std::string& folder)> folders;
};

// Compares the two texts; `pyproject_origin` and `lock_origin` name them in messages. `files`
// reads the members and local packages; without it (or where a file is not there) what it would
// decide is named in `notes` rather than refused. Fails only when a text cannot be parsed (exit 2,
// FILE:LINE:COL).
Result<SatisfiesResult> check_satisfies(std::string_view pyproject,
                                        std::string_view pyproject_origin, std::string_view uv_lock,
                                        std::string_view lock_origin,
                                        const ProjectFiles& files = {});

} // namespace envlock::uv
