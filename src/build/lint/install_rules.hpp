// The rules of `envlock lint` for what git, conda and npm fetch: a `git clone` that no later
// `git checkout COMMIT` pins, a `git checkout` of a branch or tag, `conda install` and
// `npm install -g` without versions. Internal to the lint module; lint.cpp runs them.
#pragma once

#include "build/lint/rules.hpp"

#include <string>
#include <vector>

namespace envlock::build::lint_rules {

// A `git clone` of the current stage that no `git checkout COMMIT` has pinned yet.
struct PendingClone {
  int line = 0;
  std::string shown; // "git clone --branch main https://..."
};

// What the git rule knows within one stage.
struct GitState {
  std::vector<PendingClone> clones;
  bool fetched_commit = false; // a `git fetch REMOTE COMMIT` ran: FETCH_HEAD is a commit
};

// `git clone` becomes pending; `git checkout COMMIT` (40 hex digits), `git reset --hard COMMIT`,
// `git switch --detach COMMIT` and a checkout of FETCH_HEAD after `git fetch REMOTE COMMIT` pin
// the latest pending clone; `git checkout BRANCH` (or a tag) is a finding of its own.
void check_git(const Commands& commands, GitState& state, std::vector<Finding>& out);

// Reports each pending clone (at a new stage, and at the end of the file) and forgets them.
void flush_git(GitState& state, std::vector<Finding>& out);

// `conda install` / `conda create` (also mamba, micromamba) of packages without =VERSION.
void check_conda(const Commands& commands, std::vector<Finding>& out);

// `npm install -g` (also `npm i`, `npm add`, `--global`) of packages without @VERSION (exact).
void check_npm(const Commands& commands, std::vector<Finding>& out);

} // namespace envlock::build::lint_rules
