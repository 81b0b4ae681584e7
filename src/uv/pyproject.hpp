// pyproject.toml as uv reads it for locking: the project's name, requires-python and every
// dependency list (project.dependencies, each extra of project.optional-dependencies, each
// [dependency-groups] group with its include-group entries expanded, tool.uv.dev-dependencies,
// tool.uv.override-dependencies and constraint-dependencies), each requirement with its
// position, and the sources tool.uv.sources gives a name.
#pragma once

#include "util/result.hpp"
#include "uv/requirement.hpp"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::uv {

// Where a value was written: 1-based line and column; 0 when not known.
struct TextPosition {
  int line = 0;
  int column = 0;
};

struct ListedRequirement {
  // The list that holds it, named as uv.lock names it: "dependencies", "extra dev", "group
  // test", "overrides", "constraints".
  std::string list;
  std::string text; // as written in the file
  Requirement requirement;
  TextPosition position;
};

// One entry of tool.uv.sources for a name (a name may list several, each with a marker, an
// extra or a group), as uv's `Source` holds it before lowering.
struct UvSource {
  std::string kind;     // "git", "url", "path", "index", "workspace"; empty: a key envlock
                        // does not know
  std::string value;    // the git URL, the URL, the path, or the index's name
  std::string ref_kind; // git: "rev", "tag", "branch" or empty
  std::string ref;      // git: the rev, tag or branch
  std::string subdirectory;
  std::string git_path; // git: `path`
  bool lfs = false;
  std::optional<bool> editable;
  std::optional<bool> package;
  bool workspace = false; // workspace = true
  std::string marker;     // as written; empty: every environment
  std::string extra;      // normalized; empty: every extra
  std::string group;      // normalized; empty: every group
  TextPosition position;
};

// [[tool.uv.index]]
struct UvIndex {
  std::string name;
  std::string url;
  bool is_default = false;
};

struct Pyproject {
  bool has_project = false;           // a [project] table
  bool dynamic_dependencies = false;  // "dependencies" or "optional-dependencies" in dynamic
  bool dynamic_version = false;       // "version" in dynamic
  bool workspace = false;             // a [tool.uv.workspace] table
  bool has_build_system = false;      // a [build-system] table
  std::optional<bool> uv_package;     // tool.uv.package
  std::string name;                   // normalized
  std::optional<std::string> version; // project.version
  TextPosition version_position;
  std::optional<std::string> requires_python;
  TextPosition requires_python_position;
  std::vector<std::string> extras; // normalized names of project.optional-dependencies
  std::vector<std::string> groups; // normalized names of [dependency-groups] (and "dev" for
                                   // tool.uv.dev-dependencies), empty ones included
  std::vector<ListedRequirement> requirements;
  std::map<std::string, std::vector<UvSource>> sources; // by normalized package name
  std::vector<UvIndex> indexes;
  std::vector<std::string> workspace_members; // tool.uv.workspace.members globs
  std::vector<std::string> workspace_exclude; // tool.uv.workspace.exclude globs
};

// Parses pyproject.toml text; `origin` names it in messages. Fails (exit 2) with
// "ORIGIN:LINE:COL: REASON" for malformed TOML, a list that is not a list of strings, or a
// requirement that is not PEP 508.
Result<Pyproject> parse_pyproject(std::string_view text, std::string_view origin);

} // namespace envlock::uv
