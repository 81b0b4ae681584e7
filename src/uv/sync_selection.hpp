// Which packages of uv.lock `uv sync --locked` installs: the subset of the lock reached from the
// project (or the workspace members `--package`/`--all-packages` name) through its dependencies,
// the extras and dependency groups the sync arguments select, and the edges whose markers hold
// for the image's platform and Python. uv computes the same set in `Lock::to_resolution`
// (astral-sh/uv, crates/uv-resolver/src/lock/mod.rs) from the options of `uv sync`
// (crates/uv/src/settings.rs: DependencyGroups, ExtrasSpecification, InstallOptions).
//
// The arguments read: --dev (the default group `dev`), --no-dev, --only-dev, --extra NAME,
// --all-extras, --no-extra NAME, --group NAME, --only-group NAME, --no-group NAME, --all-groups,
// --no-default-groups, --no-install-project, --no-install-workspace, --no-install-package NAME,
// --package NAME, --all-packages, --python VERSION. The rest (--locked, --frozen, --no-editable,
// --compile-bytecode, ...) do not change the set. The default groups are pyproject.toml's
// tool.uv.default-groups (a list, or "all"), `dev` when it sets none: uv.lock does not record
// them.
#pragma once

#include "util/result.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace envlock::uv {

struct SelectedPackage {
  std::string name; // normalized
  std::string version;
  bool operator==(const SelectedPackage&) const = default;
};

struct SyncSelection {
  std::vector<SelectedPackage> selected;     // sorted by name, then version
  std::vector<SelectedPackage> not_selected; // the other [[package]] entries, sorted
  std::vector<std::string> notes;            // sync arguments that were not understood
};

// The two files uv sync reads, each with the name messages give it.
struct SyncFiles {
  std::string_view uv_lock;
  std::string_view uv_lock_origin;
  std::string_view pyproject; // empty: no tool.uv.default-groups
  std::string_view pyproject_origin;
};

// The selection for `sync_args` on a Linux image of `platform` ("linux/amd64") with Python
// `python` ("3.12"; empty: the lowest version uv.lock's requires-python allows). Fails (exit 2)
// when either file cannot be parsed ("ORIGIN:LINE:COL: REASON"), when --package names no
// workspace member, when --extra names no extra of the project, or when an edge's marker is not
// PEP 508.
Result<SyncSelection> sync_selection(const SyncFiles& files,
                                     const std::vector<std::string>& sync_args,
                                     std::string_view platform, std::string_view python);

} // namespace envlock::uv
