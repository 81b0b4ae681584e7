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

// tool.uv.sources for one name, reduced to what uv.lock's requires-dist records of it.
struct UvSource {
  std::string kind;  // "git", "url", "path", "index"; empty: not compared (workspace,
                     // several sources by marker, or a key envlock does not know)
  std::string value; // the git URL, the URL, the path, or the index's URL
  std::string ref;   // git: rev, tag or branch; empty otherwise
};

struct Pyproject {
  bool has_project = false;          // a [project] table
  bool dynamic_dependencies = false; // "dependencies" or "optional-dependencies" in dynamic
  bool workspace = false;            // a [tool.uv.workspace] table
  std::string name;                  // normalized
  std::optional<std::string> requires_python;
  TextPosition requires_python_position;
  std::vector<std::string> extras; // normalized names of project.optional-dependencies
  std::vector<ListedRequirement> requirements;
  std::map<std::string, UvSource> sources; // by normalized package name
};

// Parses pyproject.toml text; `origin` names it in messages. Fails (exit 2) with
// "ORIGIN:LINE:COL: REASON" for malformed TOML, a list that is not a list of strings, or a
// requirement that is not PEP 508.
Result<Pyproject> parse_pyproject(std::string_view text, std::string_view origin);

} // namespace envlock::uv
