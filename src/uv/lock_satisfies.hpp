// Does uv.lock still describe pyproject.toml? The comparison `uv lock --check` and `uv sync
// --locked` make before they trust a lock: the project's requirements as pyproject.toml lists
// them against what uv.lock recorded for its root package ([package.metadata] requires-dist,
// requires-dev, provides-extras) and for the workspace ([manifest] overrides and constraints),
// and requires-python.
//
// Each requirement is compared by its list (dependencies, an extra, a dependency group, the
// overrides, the constraints), its normalized name and extras, its version specifiers (in one
// normal form) and its source (tool.uv.sources: git URL and ref, URL, path, index URL). Markers
// are not compared: uv rewrites them when it locks (python_version becomes python_full_version,
// terms implied by requires-python are dropped), so two spellings cannot be told apart by text.
// A project with dynamic dependencies, or a workspace, is compared only where it is static.
#pragma once

#include "util/result.hpp"

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

// Compares the two texts; `pyproject_origin` and `lock_origin` name them in messages. Fails only
// when either cannot be parsed (exit 2, FILE:LINE:COL).
Result<SatisfiesResult> check_satisfies(std::string_view pyproject,
                                        std::string_view pyproject_origin, std::string_view uv_lock,
                                        std::string_view lock_origin);

} // namespace envlock::uv
