#include "uv/lock_satisfies.hpp"

#include "util/strings.hpp"
#include "uv/marker_equivalence.hpp"
#include "uv/pyproject.hpp"
#include "uv/version.hpp"

#include <algorithm>
#include <compare>
#include <map>
#include <set>
#include <toml++/toml.h>

namespace envlock::uv {

namespace {

// ---------------------------------------------------------------------------------------------
// Paths and URLs, normalized as uv's `normalize_requirement` leaves them.

bool is_absolute(std::string_view path) {
  return !path.empty() && path.front() == '/';
}

// `path` joined to `base` (both relative to the workspace root, or absolute), with ".", ".." and
// trailing or repeated "/" taken out, as uv's `normalize_path` does: "3rdparty/Megatron-LM/" and
// "./3rdparty/Megatron-LM" are "3rdparty/Megatron-LM"; the root itself is ".".
std::string normal_path(std::string_view base, std::string_view path) {
  std::string joined = is_absolute(path) || base.empty() || base == "."
                           ? std::string(path)
                           : std::string(base) + "/" + std::string(path);
  std::vector<std::string> parts;
  for (const auto& part : util::split(joined, '/')) {
    if (part.empty() || part == ".") {
      continue;
    }
    if (part == ".." && !parts.empty() && parts.back() != "..") {
      parts.pop_back();
      continue;
    }
    parts.push_back(part);
  }
  const std::string body = util::join(parts, "/");
  if (is_absolute(joined)) {
    return "/" + body;
  }
  return body.empty() ? "." : body;
}

std::string folder_of(std::string_view path) {
  const auto slash = path.rfind('/');
  return slash == std::string_view::npos ? "." : std::string(path.substr(0, slash));
}

std::string in_folder(const std::string& folder, const std::string& name) {
  return folder == "." || folder.empty() ? name : folder + "/" + name;
}

struct UrlParts {
  std::string base;     // scheme://host[:port]/path, credentials removed
  std::string query;    // without '?'
  std::string fragment; // without '#'
};

// A URL parsed the way uv's URL type compares it: scheme and host in lower case, the default
// port left out, an empty path written "/", and the user name and password removed
// (`remove_credentials`).
UrlParts parse_url(std::string url) {
  UrlParts out;
  if (const auto hash = url.find('#'); hash != std::string::npos) {
    out.fragment = url.substr(hash + 1);
    url.resize(hash);
  }
  if (const auto question = url.find('?'); question != std::string::npos) {
    out.query = url.substr(question + 1);
    url.resize(question);
  }
  const auto scheme_end = url.find("://");
  if (scheme_end == std::string::npos) {
    out.base = url;
    return out;
  }
  const std::string scheme = util::to_lower(url.substr(0, scheme_end));
  std::string rest = url.substr(scheme_end + 3);
  const auto slash = rest.find('/');
  std::string authority = slash == std::string::npos ? rest : rest.substr(0, slash);
  std::string path = slash == std::string::npos ? "/" : rest.substr(slash);
  if (const auto at = authority.rfind('@'); at != std::string::npos) {
    authority = authority.substr(at + 1);
  }
  authority = util::to_lower(authority);
  for (const auto& [s, port] :
       {std::pair<std::string, std::string>{"https", ":443"}, {"http", ":80"}, {"ssh", ":22"}}) {
    if ((scheme == s || scheme == "git+" + s) && authority.size() > port.size() &&
        authority.ends_with(port)) {
      authority.resize(authority.size() - port.size());
    }
  }
  out.base = scheme + "://" + authority + path;
  return out;
}

// The key=value pairs of a query or fragment.
std::vector<std::pair<std::string, std::string>> pairs_of(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& part : util::split(text, '&')) {
    if (part.empty()) {
      continue;
    }
    const auto eq = part.find('=');
    out.emplace_back(part.substr(0, eq), eq == std::string::npos ? "" : part.substr(eq + 1));
  }
  return out;
}

bool archive_name(std::string_view path) {
  for (const std::string_view ext :
       {".whl", ".tar.gz", ".zip", ".tar.bz2", ".tar.xz", ".tar.zst", ".tgz", ".tbz", ".txz",
        ".tar.lz", ".tar.lzma", ".tlz", ".tar"}) {
    if (path.ends_with(ext)) {
      return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// A requirement as uv compares it.

struct Req {
  std::string name;
  std::vector<std::string> extras; // sorted
  std::string source;              // canonical, credential-free; see the *_source functions
  std::string shown;               // "name[extras]>=1 (git URL@REF)", for messages
  Marker marker;
  std::string shown_marker;
  TextPosition position;
  std::string list; // "dependencies", "extra dev", "group test", "overrides", ...
  std::string origin;
};

std::string registry_source(const std::string& specifiers, const std::string& index) {
  return "registry|" + specifiers + "|" + index;
}

struct GitRef {
  std::string kind; // rev, tag, branch; empty: the default branch
  std::string value;
};

std::string git_source(const std::string& url, const GitRef& ref, const std::string& subdirectory,
                       const std::string& path, bool lfs, const std::string& precise) {
  return "git|" + url + "|" + ref.kind + ":" + ref.value + "|" + subdirectory + "|" + path + "|" +
         (lfs ? "lfs" : "") + "|" + precise;
}

std::string directory_source(const std::string& path, bool editable, bool is_virtual) {
  return std::string("directory|") + path + "|" + (editable ? "editable" : "") + "|" +
         (is_virtual ? "virtual" : "");
}

// The source in words, from its canonical text.
std::string shown_source(const std::string& source) {
  const auto parts = util::split(source, '|');
  if (parts.empty() || parts[0] == "registry") {
    return parts.size() > 2 && !parts[2].empty() ? "index " + parts[2] : "";
  }
  if (parts[0] == "git" && parts.size() >= 7) {
    std::string out = "git " + parts[1];
    const auto colon = parts[2].find(':');
    if (colon != std::string::npos && colon + 1 < parts[2].size()) {
      out += "@" + parts[2].substr(colon + 1);
    }
    if (!parts[3].empty()) {
      out += " subdirectory " + parts[3];
    }
    if (!parts[4].empty()) {
      out += " path " + parts[4];
    }
    if (!parts[6].empty()) {
      out += "#" + parts[6];
    }
    return out;
  }
  if (parts[0] == "directory" && parts.size() >= 4) {
    return (!parts[2].empty() ? "editable " : (!parts[3].empty() ? "virtual " : "directory ")) +
           parts[1];
  }
  if (parts[0] == "url" && parts.size() >= 3) {
    return "url " + parts[1] + (parts[2].empty() ? "" : " subdirectory " + parts[2]);
  }
  return parts[0] + " " + (parts.size() > 1 ? parts[1] : "");
}

// The marker as shown: without the "extra == 'x'" that places it in its list.
std::string without_extra(std::string marker) {
  const auto at = marker.rfind("extra == '");
  if (at == std::string::npos) {
    return marker;
  }
  const auto end = marker.find('\'', at + 10);
  if (end == std::string::npos || end + 1 != marker.size()) {
    return marker;
  }
  std::string head = marker.substr(0, at);
  while (!head.empty() && head.back() == ' ') {
    head.pop_back();
  }
  if (head.ends_with(" and")) {
    head.resize(head.size() - 4);
  }
  while (!head.empty() && head.back() == ' ') {
    head.pop_back();
  }
  if (head.size() >= 2 && head.front() == '(' && head.back() == ')') {
    head = head.substr(1, head.size() - 2);
  }
  return head;
}

void finish_shown(Req& r, const std::string& specifiers) {
  std::string out = r.name;
  if (!r.extras.empty()) {
    out += "[" + util::join(r.extras, ",") + "]";
  }
  out += specifiers;
  if (!r.shown_marker.empty()) {
    out += "; " + r.shown_marker;
  }
  const std::string source = shown_source(r.source);
  if (!source.empty()) {
    out += " (" + source + ")";
  }
  r.shown = out;
}

// "extra == 'dev'" in a uv.lock marker: the extra whose list holds the requirement.
std::string extra_of(const std::string& marker) {
  const std::string key = "extra == '";
  const auto at = marker.find(key);
  if (at == std::string::npos) {
    return "";
  }
  const auto end = marker.find('\'', at + key.size());
  return end == std::string::npos
             ? ""
             : normalize_name(marker.substr(at + key.size(), end - at - key.size()));
}

// A requirement table of uv.lock ([package.metadata] requires-dist, [manifest] overrides, ...),
// read as uv's `RequirementSourceWire` reads it; its paths are relative to the workspace root.
Req lock_requirement(const toml::table& table, const std::string& list,
                     const std::string& lock_origin) {
  Req r;
  r.name = normalize_name(table["name"].value_or(std::string()));
  if (const auto* extras = table.get_as<toml::array>("extras"); extras != nullptr) {
    for (const auto& e : *extras) {
      r.extras.push_back(normalize_name(e.value_or(std::string())));
    }
  }
  std::sort(r.extras.begin(), r.extras.end());
  r.extras.erase(std::unique(r.extras.begin(), r.extras.end()), r.extras.end());
  const std::string marker_text = table["marker"].value_or(std::string());
  if (auto marker = parse_marker(marker_text)) {
    r.marker = *marker;
  } else {
    r.marker.text = marker_text;
  }
  r.shown_marker = without_extra(marker_text);
  r.list = list;
  r.origin = lock_origin;
  std::string specifiers;
  const auto text = [&](const char* key) { return table[key].value_or(std::string()); };
  if (table.contains("git")) {
    UrlParts url = parse_url(text("git"));
    GitRef ref;
    std::string subdirectory;
    std::string path;
    bool lfs = false;
    for (const auto& [key, value] : pairs_of(url.query)) {
      if (key == "rev" || key == "tag" || key == "branch") {
        ref = {key, value};
      } else if (key == "subdirectory") {
        subdirectory = value;
      } else if (key == "path") {
        path = value;
      } else if (key == "lfs") {
        lfs = util::to_lower(value) == "true";
      }
    }
    r.source = git_source(url.base, ref, subdirectory, path, lfs, url.fragment);
  } else if (table.contains("url")) {
    r.source = "url|" + parse_url(text("url")).base + "|" + text("subdirectory");
  } else if (table.contains("path")) {
    r.source = "path|" + normal_path(".", text("path"));
  } else if (table.contains("directory")) {
    r.source = directory_source(normal_path(".", text("directory")), false, false);
  } else if (table.contains("editable")) {
    r.source = directory_source(normal_path(".", text("editable")), true, false);
  } else if (table.contains("virtual")) {
    r.source = directory_source(normal_path(".", text("virtual")), false, true);
  } else {
    if (auto parsed = parse_specifiers(text("specifier"))) {
      specifiers = normal_form(*parsed);
    } else {
      specifiers = text("specifier");
    }
    const std::string index = table.contains("index") ? parse_url(text("index")).base : "";
    r.source = registry_source(specifiers, index);
  }
  finish_shown(r, specifiers);
  return r;
}

std::vector<Req> lock_requirements(const toml::node* node, const std::string& list,
                                   const std::string& lock_origin, bool split_extras) {
  std::vector<Req> out;
  const auto* array = node == nullptr ? nullptr : node->as_array();
  if (array == nullptr) {
    return out;
  }
  for (const auto& item : *array) {
    if (const auto* table = item.as_table(); table != nullptr) {
      std::string in = list;
      if (split_extras) {
        const std::string extra = extra_of((*table)["marker"].value_or(std::string()));
        if (!extra.empty()) {
          in = "extra " + extra;
        }
      }
      out.push_back(lock_requirement(*table, in, lock_origin));
    }
  }
  return out;
}

std::string list_title(const std::string& list) {
  if (list == "dependencies") {
    return "[project.dependencies]";
  }
  if (list.rfind("extra ", 0) == 0) {
    return "[project.optional-dependencies] " + list.substr(6);
  }
  if (list.rfind("group ", 0) == 0) {
    return "[dependency-groups] " + list.substr(6);
  }
  if (list == "requirements") {
    return "[manifest] requirements";
  }
  return "[tool.uv] " + list.substr(0, list.size() - 1) + "-dependencies";
}

std::string at(std::string_view origin, TextPosition where) {
  std::string out(origin);
  if (where.line > 0) {
    out += ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
  }
  return out + ": ";
}

// A member of the workspace, or a local package the lock reaches.
struct Member {
  std::string name;
  std::string dir;    // relative to the workspace root; "." for the root
  std::string origin; // its pyproject.toml as named in messages
  Pyproject py;
};

bool is_package(const Pyproject& py, bool require_build_system) {
  // uv's `PyProjectToml::is_package`: tool.uv.package when set, else a [build-system] table
  // (required only of a member no other member depends on).
  if (py.uv_package) {
    return *py.uv_package;
  }
  return py.has_build_system || !require_build_system;
}

const toml::table* source_of(const toml::table& package) {
  return package.get_as<toml::table>("source");
}

std::string source_kind(const toml::table& package) {
  if (const auto* source = source_of(package); source != nullptr) {
    for (const auto* kind :
         {"registry", "git", "url", "path", "directory", "editable", "virtual"}) {
      if (source->contains(kind)) {
        return kind;
      }
    }
  }
  return "";
}

std::string source_value(const toml::table& package) {
  if (const auto* source = source_of(package); source != nullptr) {
    for (const auto& [key, value] : *source) {
      if (const auto* text = value.as_string(); text != nullptr) {
        return text->get();
      }
    }
  }
  return "";
}

bool is_source_tree(const std::string& kind) {
  return kind == "directory" || kind == "editable" || kind == "virtual";
}

class Checker {
public:
  Checker(const Pyproject& root, std::string_view root_origin, const toml::table& lock,
          std::string_view lock_origin, const ProjectFiles& files, SatisfiesResult& result)
      : m_root(root), m_root_origin(root_origin), m_lock(lock), m_lock_origin(lock_origin),
        m_files(files), m_result(result) {
    m_revision = lock["revision"].value_or(std::int64_t{0});
    const std::string python = lock["requires-python"].value_or(std::string());
    m_lock_python = python_range(python).value_or(PythonRange{});
  }

  Status run() {
    ENVLOCK_TRY(discover_members());
    check_members();
    collect_required_members();
    check_member_sources();
    ENVLOCK_TRY(check_manifest());
    check_requires_python();
    ENVLOCK_TRY(check_source_trees());
    return {};
  }

private:
  void refuse(std::string message) { m_result.moved.push_back({std::move(message)}); }
  void note(std::string message) {
    if (std::find(m_result.notes.begin(), m_result.notes.end(), message) == m_result.notes.end()) {
      m_result.notes.push_back(std::move(message));
    }
  }

  std::string root_folder() const { return folder_of(m_root_origin); }

  std::string origin_of(const std::string& dir) const {
    return dir == "." ? std::string(m_root_origin)
                      : in_folder(root_folder(), dir + "/pyproject.toml");
  }

  // Reads DIR/pyproject.toml; nothing when it is not there (or no files can be read).
  Result<std::optional<Pyproject>> read_pyproject(const std::string& dir) {
    if (!m_files.read) {
      return std::optional<Pyproject>();
    }
    ENVLOCK_TRY_ASSIGN(auto text, m_files.read(in_folder(dir, "pyproject.toml")));
    if (!text) {
      return std::optional<Pyproject>();
    }
    ENVLOCK_TRY_ASSIGN(auto parsed, parse_pyproject(*text, origin_of(dir)));
    return std::optional<Pyproject>(std::move(parsed));
  }

  // uv's workspace discovery: the root when it has [project], and each folder that
  // tool.uv.workspace.members matches (one "*" or "?" pattern per path name) and exclude does
  // not.
  Status discover_members() {
    if (m_root.has_project) {
      m_members[m_root.name] = {m_root.name, ".", std::string(m_root_origin), m_root};
    }
    if (m_root.workspace_members.empty()) {
      return {};
    }
    if (!m_files.folders || !m_files.read) {
      m_members_known = false;
      note(std::string(m_root_origin) +
           ": the workspace members' folders could not be listed; the members were taken from " +
           std::string(m_lock_origin) + " and not compared");
      return {};
    }
    std::set<std::string> dirs;
    for (const auto& pattern : m_root.workspace_members) {
      std::vector<std::string> matched = {"."};
      for (const auto& part : util::split(normal_path(".", pattern), '/')) {
        std::vector<std::string> next;
        for (const auto& dir : matched) {
          if (part.find_first_of("*?[") == std::string::npos) {
            next.push_back(in_folder(dir, part));
            continue;
          }
          if (part == "**" || part.find('[') != std::string::npos) {
            m_members_known = false;
            note(std::string(m_root_origin) + ": the workspace member pattern '" + pattern +
                 "' was not expanded; the members were taken from " + std::string(m_lock_origin));
            return {};
          }
          for (const auto& name : m_files.folders(dir).value_or(std::vector<std::string>())) {
            if (!name.starts_with(".") && glob_match(part, name)) {
              next.push_back(in_folder(dir, name));
            }
          }
        }
        matched = std::move(next);
      }
      for (const auto& dir : matched) {
        bool excluded = false;
        for (const auto& ex : m_root.workspace_exclude) {
          excluded = excluded || path_glob_match(normal_path(".", ex), dir);
        }
        if (!excluded && dir != ".") {
          dirs.insert(dir);
        }
      }
    }
    for (const auto& dir : dirs) {
      ENVLOCK_TRY_ASSIGN(auto py, read_pyproject(dir));
      if (!py) {
        continue; // not a folder, or no pyproject.toml: not a member
      }
      if (!py->has_project) {
        continue;
      }
      const std::string name = py->name;
      m_members[name] = {name, dir, origin_of(dir), std::move(*py)};
    }
    return {};
  }

  static bool glob_match(std::string_view pattern, std::string_view name) {
    if (pattern.empty()) {
      return name.empty();
    }
    if (pattern.front() == '*') {
      for (std::size_t i = 0; i <= name.size(); ++i) {
        if (glob_match(pattern.substr(1), name.substr(i))) {
          return true;
        }
      }
      return false;
    }
    if (name.empty()) {
      return false;
    }
    return (pattern.front() == '?' || pattern.front() == name.front()) &&
           glob_match(pattern.substr(1), name.substr(1));
  }

  static bool path_glob_match(const std::string& pattern, const std::string& path) {
    const auto p = util::split(pattern, '/');
    const auto q = util::split(path, '/');
    if (p.size() != q.size()) {
      return false;
    }
    for (std::size_t i = 0; i < p.size(); ++i) {
      if (!glob_match(p[i], q[i])) {
        return false;
      }
    }
    return true;
  }

  const toml::table* manifest() const { return m_lock.get_as<toml::table>("manifest"); }

  std::vector<const toml::table*> packages_named(const std::string& name) const {
    std::vector<const toml::table*> out;
    if (const auto* packages = m_lock.get_as<toml::array>("package"); packages != nullptr) {
      for (const auto& node : *packages) {
        const auto* table = node.as_table();
        if (table != nullptr && normalize_name((*table)["name"].value_or(std::string())) == name) {
          out.push_back(table);
        }
      }
    }
    return out;
  }

  // `Lock::satisfies`: "Validate that the lockfile was generated with the same root members"
  // ([manifest] members; a project alone in its workspace is left out of it).
  void check_members() {
    std::set<std::string> actual;
    if (const auto* m = manifest(); m != nullptr) {
      if (const auto* members = m->get_as<toml::array>("members"); members != nullptr) {
        for (const auto& item : *members) {
          actual.insert(normalize_name(item.value_or(std::string())));
        }
      }
    }
    if (!m_members_known) {
      // Taken from the lock: the members it names, with the sources it records for them.
      for (const auto& name : actual) {
        if (m_members.count(name) == 0) {
          m_unread_members.insert(name);
        }
      }
      return;
    }
    std::set<std::string> expected;
    for (const auto& [name, member] : m_members) {
      expected.insert(name);
    }
    if (expected.size() == 1 && m_root.has_project) {
      expected.clear();
    }
    if (expected != actual) {
      const auto words = [](const std::set<std::string>& names) {
        return names.empty()
                   ? std::string("(none)")
                   : util::join(std::vector<std::string>(names.begin(), names.end()), ", ");
      };
      refuse(at(m_root_origin, {}) + "the workspace members are " + words(expected) + "; " +
             std::string(m_lock_origin) + " recorded [manifest] members " + words(actual));
    }
  }

  // `Workspace::collect_required_members`: the members another member (or the root) names with
  // `workspace = true` in tool.uv.sources, with the `editable` it gives.
  void collect_required_members() {
    const auto add = [&](const Pyproject& py, const std::string& self) {
      for (const auto& [name, entries] : py.sources) {
        if (name == self) {
          continue;
        }
        for (const auto& entry : entries) {
          if (entry.kind == "workspace" && entry.workspace) {
            auto& slot = m_required[name];
            if (entry.editable) {
              slot = entry.editable;
            }
          }
        }
      }
    };
    add(m_root, m_root.has_project ? m_root.name : "");
    for (const auto& [name, member] : m_members) {
      if (member.dir != ".") {
        add(member.py, name);
      }
    }
  }

  // `Lock::satisfies`: "Validate that the member sources have not changed (e.g., that they've
  // switched from virtual to non-virtual or vice versa)", then editable or not.
  void check_member_sources() {
    for (const auto& [name, member] : m_members) {
      const auto packages = packages_named(name);
      const std::string kind = packages.size() == 1 ? source_kind(*packages.front()) : "";
      const bool required = m_required.count(name) != 0;
      const bool expected_virtual = !is_package(member.py, !required);
      const bool expected_editable =
          !expected_virtual && (required ? m_required.at(name).value_or(true) : true);
      if (packages.empty()) {
        refuse(at(member.origin, {}) + "the workspace member '" + name + "' is not in " +
               std::string(m_lock_origin));
        continue;
      }
      const std::string expected =
          expected_virtual ? "virtual" : (expected_editable ? "editable" : "directory");
      if (kind != expected) {
        refuse(at(member.origin, {}) + "'" + name + "' is " +
               (expected_virtual ? "a virtual project (no [build-system], or tool.uv.package = "
                                   "false)"
                                 : std::string("a package installed ") +
                                       (expected_editable ? "editable" : "not editable")) +
               "; " + std::string(m_lock_origin) + " recorded its source as " +
               (kind.empty() ? std::string("(none)") : kind));
      }
    }
  }

  // Where a requirement is lowered: the project whose tool.uv.sources and indexes apply first,
  // then the workspace root's (uv's `RequirementOrigin::Project` and `::Workspace`).
  struct Scope {
    std::optional<std::string> project_name; // none for the root's own lists (overrides, ...)
    std::string project_dir;
    const Pyproject* project = nullptr;
    std::string workspace_dir;
    const Pyproject* workspace = nullptr;
    const std::map<std::string, Member>* members = nullptr;
    const std::map<std::string, std::optional<bool>>* required = nullptr;
    std::string origin; // the pyproject.toml the requirements are read from
  };

  Scope workspace_scope(const Member* member) const {
    Scope scope;
    scope.workspace_dir = ".";
    scope.workspace = &m_root;
    scope.members = &m_members;
    scope.required = &m_required;
    if (member != nullptr) {
      scope.project_name = member->name;
      scope.project_dir = member->dir;
      scope.project = &member->py;
      scope.origin = member->origin;
    } else {
      scope.project_dir = ".";
      scope.project = &m_root;
      scope.origin = std::string(m_root_origin);
    }
    return scope;
  }

  // A directory source, as uv's `path_source` makes it: editable when asked; otherwise a package
  // unless its own pyproject.toml says it is not (`is_package(false)`), virtual if not.
  Result<std::string> path_source(const std::string& path, std::optional<bool> editable,
                                  std::optional<bool> package) {
    const std::string last =
        path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/'));
    const bool is_dir = (m_files.folders && m_files.folders(path).has_value()) ||
                        last.find('.') == std::string::npos || !archive_name(path);
    if (!is_dir) {
      return "path|" + path;
    }
    if (editable == true) {
      return directory_source(path, true, false);
    }
    bool packaged = true;
    if (package) {
      packaged = *package;
    } else {
      ENVLOCK_TRY_ASSIGN(auto target, read_pyproject(path));
      packaged = !target || is_package(*target, false);
    }
    return directory_source(path, false, !packaged);
  }

  // The source of `name @ URL`, as uv parses a PEP 508 URL (`VerbatimParsedUrl`).
  static std::string url_requirement_source(const std::string& written, const std::string& dir) {
    const std::string& url = written;
    if (url.rfind("git+", 0) == 0) {
      UrlParts parts = parse_url(url.substr(4));
      GitRef ref;
      // "https://host/repo.git@REF": the ref follows the last '@' of the path.
      const auto scheme = parts.base.find("://");
      const auto path_at = parts.base.find('/', scheme == std::string::npos ? 0 : scheme + 3);
      const auto at_sign = parts.base.rfind('@');
      if (at_sign != std::string::npos && path_at != std::string::npos && at_sign > path_at) {
        ref = {"rev", parts.base.substr(at_sign + 1)};
        parts.base.resize(at_sign);
      }
      std::string subdirectory;
      std::string path;
      bool lfs = false;
      for (const auto& [key, value] : pairs_of(parts.fragment)) {
        if (key == "subdirectory") {
          subdirectory = value;
        } else if (key == "path") {
          path = value;
        } else if (key == "lfs") {
          lfs = util::to_lower(value) == "true";
        }
      }
      return git_source(parts.base, ref, subdirectory, path, lfs, "");
    }
    if (url.rfind("file://", 0) == 0 || url.rfind("./", 0) == 0 || url.rfind("../", 0) == 0 ||
        is_absolute(url)) {
      std::string path = url.rfind("file://", 0) == 0 ? url.substr(7) : url;
      path = path.substr(0, path.find('#'));
      const std::string normal = normal_path(dir, path);
      return archive_name(normal) ? "path|" + normal : directory_source(normal, false, false);
    }
    const UrlParts parts = parse_url(url);
    std::string subdirectory;
    for (const auto& [key, value] : pairs_of(parts.fragment)) {
      if (key == "subdirectory") {
        subdirectory = value;
      }
    }
    return "url|" + parts.base + "|" + subdirectory;
  }

  Req make_req(const Requirement& r, const std::string& source, const std::string& specifiers,
               Marker marker, std::string shown_marker, const ListedRequirement& listed,
               const Scope& scope) const {
    Req out;
    out.name = r.name;
    out.extras = r.extras;
    out.source = source;
    out.marker = std::move(marker);
    out.shown_marker = std::move(shown_marker);
    out.position = listed.position;
    out.list = listed.list;
    out.origin = scope.origin;
    finish_shown(out, specifiers);
    return out;
  }

  // uv's `LoweredRequirement::from_requirement` (crates/uv-distribution/src/metadata/
  // lowering.rs): the requirement through tool.uv.sources. A git, URL, path or workspace source
  // replaces the version specifier (`pydantic-core==2.48.0` with a path source is recorded as
  // `pydantic-core`); an index source keeps it; sources chosen by marker split the requirement,
  // and what their markers leave uncovered keeps the requirement as written.
  Result<std::vector<Req>> lower(const ListedRequirement& listed, const std::string& extra,
                                 const std::string& group, const Scope& scope) {
    const Requirement& r = listed.requirement;
    auto parsed_marker = parse_marker(r.marker);
    if (!parsed_marker) {
      return input_error(at(scope.origin, listed.position) + parsed_marker.error().message);
    }
    Marker marker = *parsed_marker;
    if (!extra.empty()) {
      // `with_extra_marker`: an optional dependency holds only with its extra.
      marker = marker_and(marker, *parse_marker("extra == '" + extra + "'"));
    }
    const std::string specifiers = normal_form(r.specifiers);
    const std::vector<UvSource>* entries = nullptr;
    bool from_project = true;
    if (const auto found = scope.project->sources.find(r.name);
        found != scope.project->sources.end()) {
      entries = &found->second;
    } else if (const auto ws = scope.workspace->sources.find(r.name);
               ws != scope.workspace->sources.end()) {
      entries = &ws->second;
      from_project = false;
    }
    std::vector<UvSource> chosen;
    if (entries != nullptr) {
      for (const auto& entry : *entries) {
        if ((!entry.extra.empty() && entry.extra != extra) ||
            (!entry.group.empty() && entry.group != group)) {
          continue;
        }
        chosen.push_back(entry);
      }
    }
    const bool member = scope.members->count(r.name) != 0 || m_unread_members.count(r.name) != 0;
    if (member && scope.project_name != r.name) {
      // "If you use a package that's part of the workspace... it must be declared as a
      // workspace source."
      bool ok = entries != nullptr;
      for (const auto& entry : chosen) {
        ok = ok && entry.kind == "workspace" && entry.workspace;
      }
      if (!ok) {
        return input_error(at(scope.origin, listed.position) + "'" + r.name +
                           "' is a workspace member, but tool.uv.sources does not give it "
                           "{ workspace = true } (uv refuses to lock it)");
      }
    }
    std::vector<Req> out;
    if (entries == nullptr) {
      // No source: the requirement as written (`preserve_git_source`).
      const std::string source = r.url.empty() ? registry_source(specifiers, "")
                                               : url_requirement_source(r.url, scope.project_dir);
      out.push_back(
          make_req(r, source, r.url.empty() ? specifiers : "", marker, r.marker, listed, scope));
      return out;
    }
    Marker covered = marker_never();
    for (const auto& entry : chosen) {
      auto entry_marker = parse_marker(entry.marker);
      if (!entry_marker) {
        return input_error(at(scope.origin, entry.position) + entry_marker.error().message);
      }
      covered = marker_or(covered, *entry_marker);
      const std::string base = from_project ? scope.project_dir : scope.workspace_dir;
      std::string source;
      std::string shown_specifiers;
      if (entry.kind == "git") {
        std::string url = entry.value;
        if (url.rfind("git+", 0) == 0) {
          url = url.substr(4);
        }
        const GitRef ref = entry.ref_kind.empty() ? GitRef{} : GitRef{entry.ref_kind, entry.ref};
        source =
            git_source(parse_url(url).base, ref, entry.subdirectory, entry.git_path, entry.lfs, "");
      } else if (entry.kind == "url") {
        source = "url|" + parse_url(entry.value).base + "|" + entry.subdirectory;
      } else if (entry.kind == "path") {
        ENVLOCK_TRY_ASSIGN(
            source, path_source(normal_path(base, entry.value), entry.editable, entry.package));
      } else if (entry.kind == "index") {
        std::optional<std::string> url;
        for (const auto* py : {scope.project, scope.workspace}) {
          for (const auto& index : py->indexes) {
            if (!url && index.name == entry.value) {
              url = index.url;
            }
          }
        }
        if (!url) {
          return input_error(at(scope.origin, entry.position) + "'" + r.name +
                             "' names the index '" + entry.value +
                             "', which no [[tool.uv.index]] declares (uv refuses to lock it)");
        }
        source = registry_source(specifiers, parse_url(*url).base);
        shown_specifiers = specifiers;
      } else if (entry.kind == "workspace") {
        ENVLOCK_TRY_ASSIGN(source, workspace_source(r.name, scope, listed));
      } else {
        note(at(scope.origin, entry.position) + "the tool.uv.sources entry of '" + r.name +
             "' is of a kind envlock does not know; it was compared as written");
        source = registry_source(specifiers, "");
        shown_specifiers = specifiers;
      }
      std::string shown = entry.marker;
      if (!r.marker.empty()) {
        shown = shown.empty() ? r.marker : entry.marker + " and " + r.marker;
      }
      // "...filter(|requirement| !requirement.marker.is_false())": a source whose marker
      // contradicts the requirement's adds nothing.
      const Marker combined = marker_and(*entry_marker, marker);
      if (equivalent(combined, marker_never(), PythonRange{}) == Equivalence::equal) {
        continue;
      }
      out.push_back(make_req(r, source, shown_specifiers, combined, shown, listed, scope));
    }
    // "Determine whether the markers cover the full space for the requirement. If not, fill the
    // remaining space with the negation of the sources."
    const Marker remaining = marker_and(marker_not(covered), marker);
    if (equivalent(remaining, marker_never(), PythonRange{}) != Equivalence::equal) {
      const std::string source = r.url.empty() ? registry_source(specifiers, "")
                                               : url_requirement_source(r.url, scope.project_dir);
      out.push_back(make_req(r, source, r.url.empty() ? specifiers : "", remaining,
                             r.marker.empty() ? "not (" + covered.text + ")"
                                              : "not (" + covered.text + ") and " + r.marker,
                             listed, scope));
    }
    return out;
  }

  // uv's `workspace_source`: the member's folder, editable unless a source says otherwise or the
  // member is virtual.
  Result<std::string> workspace_source(const std::string& name, const Scope& scope,
                                       const ListedRequirement& listed) {
    const auto found = scope.members->find(name);
    if (found == scope.members->end()) {
      // A member whose pyproject.toml envlock could not read: its source as the lock records it.
      for (const auto* package : packages_named(name)) {
        const std::string kind = source_kind(*package);
        if (is_source_tree(kind)) {
          return directory_source(normal_path(".", source_value(*package)), kind == "editable",
                                  kind == "virtual");
        }
      }
      return input_error(at(scope.origin, listed.position) + "'" + name +
                         "' has { workspace = true } in tool.uv.sources but is not a workspace "
                         "member (uv refuses to lock it)");
    }
    const bool required = scope.required->count(name) != 0;
    const bool packaged = is_package(found->second.py, !required);
    const bool editable = packaged && (required ? scope.required->at(name).value_or(true) : true);
    return directory_source(found->second.dir, editable, !packaged && !editable);
  }

  // Dependency groups are compared group by group (`BTreeMap<GroupName, BTreeSet<...>>`);
  // requires-dist as one set, its extras told apart by their markers.
  static std::string group_of(const Req& r) {
    return r.list.rfind("group ", 0) == 0 ? r.list : std::string();
  }

  bool same_requirement(const Req& a, const Req& b) {
    if (a.name != b.name || a.extras != b.extras || a.source != b.source ||
        group_of(a) != group_of(b)) {
      return false;
    }
    switch (equivalent(a.marker, b.marker, m_lock_python)) {
    case Equivalence::equal:
      return true;
    case Equivalence::different:
      return false;
    case Equivalence::undecided:
      note(at(a.origin, a.position) + "the markers of '" + a.name +
           "' name too many environments to compare; they were taken as equal");
      return true;
    }
    return false;
  }

  // Two sets of requirements, as uv compares them (`BTreeSet<Requirement>` of normalized
  // requirements: a requirement listed twice is one); what differs is named list by list.
  void compare(std::vector<Req> expected, std::vector<Req> actual) {
    const auto dedupe = [this](std::vector<Req>& v) {
      std::vector<Req> out;
      for (auto& r : v) {
        if (std::none_of(out.begin(), out.end(),
                         [&](const Req& o) { return same_requirement(o, r); })) {
          out.push_back(std::move(r));
        }
      }
      v = std::move(out);
    };
    dedupe(expected);
    dedupe(actual);
    std::vector<bool> used(actual.size(), false);
    std::vector<const Req*> only_expected;
    for (const auto& e : expected) {
      bool found = false;
      for (std::size_t i = 0; i < actual.size() && !found; ++i) {
        if (!used[i] && same_requirement(e, actual[i])) {
          used[i] = true;
          found = true;
        }
      }
      if (!found) {
        only_expected.push_back(&e);
      }
    }
    std::map<std::pair<std::string, std::string>,
             std::pair<std::vector<const Req*>, std::vector<const Req*>>>
        by_list;
    for (const auto* e : only_expected) {
      by_list[{e->list, e->name}].first.push_back(e);
    }
    for (std::size_t i = 0; i < actual.size(); ++i) {
      if (!used[i]) {
        by_list[{actual[i].list, actual[i].name}].second.push_back(&actual[i]);
      }
    }
    for (const auto& [key, sides] : by_list) {
      const std::string title = list_title(key.first);
      const auto& [wanted, recorded] = sides;
      if (wanted.size() == 1 && recorded.size() == 1) {
        refuse(at(wanted[0]->origin, wanted[0]->position) + title + " requires '" +
               wanted[0]->shown + "', " + std::string("uv.lock") + " recorded '" +
               recorded[0]->shown + "'");
        continue;
      }
      for (const auto* w : wanted) {
        refuse(at(w->origin, w->position) + title + " requires '" + w->shown + "', which " +
               std::string("uv.lock") + " did not record");
      }
      for (const auto* r : recorded) {
        refuse(at(m_list_origin, {}) + title + " no longer requires '" + r->shown + "', which " +
               std::string("uv.lock") + " recorded");
      }
    }
  }

  // The requirements of the lists `wanted` picks, lowered. `group_sources`: a source given for
  // one group applies in that group (a package's groups); the root's own groups are lowered
  // without a group (`LockTarget::lower`), so such a source does not apply there.
  Result<std::vector<Req>> lower_list(const Pyproject& py, const Scope& scope, bool group_sources,
                                      const std::function<bool(const std::string&)>& wanted) {
    std::vector<Req> out;
    for (const auto& listed : py.requirements) {
      if (!wanted(listed.list)) {
        continue;
      }
      const std::string extra = listed.list.rfind("extra ", 0) == 0 ? listed.list.substr(6) : "";
      const std::string group =
          group_sources && listed.list.rfind("group ", 0) == 0 ? listed.list.substr(6) : "";
      ENVLOCK_TRY_ASSIGN(auto lowered, lower(listed, extra, group, scope));
      for (auto& r : lowered) {
        out.push_back(std::move(r));
      }
    }
    return out;
  }

  // `Lock::satisfies`: the [manifest] requirements, constraints, overrides, build constraints
  // and dependency groups, each lowered through the root's tool.uv.sources first (`do_lock`
  // lowers them with `LockTarget::lower` before it validates).
  Status check_manifest() {
    Scope scope = workspace_scope(nullptr);
    scope.project_name.reset(); // `BuildRequires::from_workspace` lowers them for no project
    const auto* m = manifest();
    const auto lock_list = [&](const char* key, const std::string& list) {
      return lock_requirements(m == nullptr ? nullptr : m->get(key), list,
                               std::string(m_lock_origin), false);
    };
    m_list_origin = std::string(m_root_origin);
    compare({}, lock_list("requirements", "requirements"));
    for (const char* key : {"constraints", "overrides", "build-constraints"}) {
      const std::string list(key);
      ENVLOCK_TRY_ASSIGN(auto expected, lower_list(m_root, scope, false, [&](const std::string& l) {
                           return l == list;
                         }));
      compare(std::move(expected), lock_list(key, list));
    }
    // A root without [project]: its dependency groups (tool.uv.dev-dependencies merged into
    // "dev", include-group expanded) are the workspace's own (`workspace_dependency_groups`);
    // groups without requirements are left out on both sides.
    std::vector<Req> expected;
    if (!m_root.has_project) {
      ENVLOCK_TRY_ASSIGN(expected, lower_list(m_root, scope, false, [](const std::string& l) {
                           return l.rfind("group ", 0) == 0;
                         }));
    }
    std::vector<Req> actual;
    if (const auto* groups = m == nullptr ? nullptr : m->get_as<toml::table>("dependency-groups");
        groups != nullptr) {
      for (const auto& [group, list] : *groups) {
        for (auto& r : lock_requirements(&list, "group " + normalize_name(group.str()),
                                         std::string(m_lock_origin), false)) {
          actual.push_back(std::move(r));
        }
      }
    }
    compare(std::move(expected), std::move(actual));
    check_dependency_metadata();
    return {};
  }

  // `Lock::satisfies`: "Validate that the lockfile was generated with the same static metadata"
  // (tool.uv.dependency-metadata against [[manifest.dependency-metadata]]): name, version,
  // requires-dist in order, requires-python and provides-extras, each parsed.
  void check_dependency_metadata() {
    const auto entries = [](const toml::node* node) {
      std::map<std::string, std::pair<std::string, TextPosition>> out;
      const auto* array = node == nullptr ? nullptr : node->as_array();
      if (array == nullptr) {
        return out;
      }
      for (const auto& item : *array) {
        const auto* t = item.as_table();
        if (t == nullptr) {
          continue;
        }
        const std::string name = normalize_name((*t)["name"].value_or(std::string()));
        std::string text = "version " + normal_version((*t)["version"].value_or(std::string()));
        std::vector<std::string> requires_dist;
        if (const auto* list = t->get_as<toml::array>("requires-dist"); list != nullptr) {
          for (const auto& r : *list) {
            requires_dist.push_back(normal_requirement(r.value_or(std::string())));
          }
        }
        text += "; requires-dist [" + util::join(requires_dist, ", ") + "]";
        const std::string python = (*t)["requires-python"].value_or(std::string());
        const auto parsed = parse_specifiers(python);
        text += "; requires-python '" + (parsed ? normal_form(*parsed) : python) + "'";
        std::vector<std::string> extras;
        if (const auto* list = t->get_as<toml::array>("provides-extras"); list != nullptr) {
          for (const auto& e : *list) {
            extras.push_back(normalize_name(e.value_or(std::string())));
          }
        }
        text += "; provides-extras [" + util::join(extras, ", ") + "]";
        const auto& begin = t->source().begin;
        out[name] = {text, {static_cast<int>(begin.line), static_cast<int>(begin.column)}};
      }
      return out;
    };
    const auto* uv_table = m_root_doc == nullptr ? nullptr : (*m_root_doc)["tool"]["uv"].as_table();
    const auto* m = manifest();
    const auto expected =
        entries(uv_table == nullptr ? nullptr : uv_table->get("dependency-metadata"));
    const auto actual = entries(m == nullptr ? nullptr : m->get("dependency-metadata"));
    std::set<std::string> names;
    for (const auto& [n, v] : expected) {
      names.insert(n);
    }
    for (const auto& [n, v] : actual) {
      names.insert(n);
    }
    for (const auto& n : names) {
      const auto e = expected.find(n);
      const auto a = actual.find(n);
      if (e != expected.end() && a != actual.end() && e->second.first == a->second.first) {
        continue;
      }
      refuse(at(m_root_origin, e == expected.end() ? TextPosition{} : e->second.second) +
             "[[tool.uv.dependency-metadata]] '" + n + "' is " +
             (e == expected.end() ? std::string("(not there)") : e->second.first) + "; " +
             std::string(m_lock_origin) + " recorded " +
             (a == actual.end() ? std::string("(nothing)") : a->second.first));
    }
  }

  static std::string normal_version(const std::string& text) {
    const auto parsed = parse_py_version(text);
    return parsed ? to_string(*parsed) : text;
  }

  static std::string normal_requirement(const std::string& text) {
    const auto parsed = parse_requirement(text);
    if (!parsed) {
      return text;
    }
    std::string out = parsed->name;
    if (!parsed->extras.empty()) {
      out += "[" + util::join(parsed->extras, ",") + "]";
    }
    out += parsed->url.empty() ? normal_form(parsed->specifiers) : " @ " + parsed->url;
    if (!parsed->marker.empty()) {
      out += "; " + parsed->marker;
    }
    return out;
  }

public:
  void set_root_doc(const toml::table* doc) { m_root_doc = doc; }

private:
  // `ValidatedLock::validate`: "If the Requires-Python bound has changed, we have to perform a
  // clean resolution" - the workspace's requires-python (the intersection of its members') and
  // the lock's, compared as ranges (`RequiresPython::range`), not as text.
  void check_requires_python() {
    std::optional<PythonRange> expected;
    std::string origin;
    TextPosition position;
    for (const auto& [name, member] : m_members) {
      if (!member.py.requires_python) {
        continue;
      }
      const auto range = python_range(*member.py.requires_python);
      if (!range) {
        continue;
      }
      if (!expected) {
        expected = range;
        origin = member.origin;
        position = member.py.requires_python_position;
        continue;
      }
      expected = intersect(*expected, *range);
    }
    const std::string lock_text = m_lock["requires-python"].value_or(std::string());
    if (!expected) {
      if (!m_members.empty() || m_root.has_project) {
        note(std::string(m_root_origin) +
             ": no member gives requires-python; uv takes the "
             "Python it runs with, so " +
             std::string(m_lock_origin) + "'s '" + lock_text + "' was not compared");
      }
      return;
    }
    if (!same_python_range(*expected, m_lock_python)) {
      const bool one = m_members.size() == 1;
      refuse(at(origin, position) + "requires-python is " +
             (one ? "'" + *m_members.begin()->second.py.requires_python + "'"
                  : "'" + to_string(*expected) + "' across the members") +
             ", " + std::string(m_lock_origin) + " recorded '" + lock_text + "'");
    }
  }

  static PythonRange intersect(const PythonRange& a, const PythonRange& b) {
    PythonRange out = a;
    if (b.lower.version &&
        (!out.lower.version || compare_py(*b.lower.version, *out.lower.version) > 0 ||
         (compare_py(*b.lower.version, *out.lower.version) == 0 && !b.lower.inclusive))) {
      out.lower = b.lower;
    }
    if (b.upper.version &&
        (!out.upper.version || compare_py(*b.upper.version, *out.upper.version) < 0 ||
         (compare_py(*b.upper.version, *out.upper.version) == 0 && !b.upper.inclusive))) {
      out.upper = b.upper;
    }
    out.empty = a.empty || b.empty;
    return out;
  }

  static int compare_py(const PyVersion& a, const PyVersion& b) {
    const auto c = uv::compare(a, b);
    return std::is_lt(c) ? -1 : (std::is_gt(c) ? 1 : 0);
  }

  // `Lock::satisfies`, from "Add the workspace packages to the queue": each member, and each
  // local package (directory, editable, virtual) reached from one through packages that are not
  // immutable, is checked against its own pyproject.toml - version, extras, requires-dist and
  // dependency groups. Registry and git packages are immutable: neither they nor what they
  // depend on is checked.
  Status check_source_trees() {
    std::vector<const toml::table*> queue;
    std::set<const toml::table*> seen;
    const auto push = [&](const toml::table* p) {
      if (seen.insert(p).second) {
        queue.push_back(p);
      }
    };
    for (const auto& [name, member] : m_members) {
      for (const auto* p : packages_named(name)) {
        push(p);
      }
    }
    for (const auto& name : m_unread_members) {
      for (const auto* p : packages_named(name)) {
        push(p);
      }
    }
    if (m_members.empty() && m_unread_members.empty()) {
      // A root without [project] and without members: the local packages its groups name.
      if (const auto* packages = m_lock.get_as<toml::array>("package"); packages != nullptr) {
        for (const auto& node : *packages) {
          const auto* t = node.as_table();
          if (t != nullptr && is_source_tree(source_kind(*t))) {
            push(t);
          }
        }
      }
    }
    for (std::size_t i = 0; i < queue.size(); ++i) {
      const toml::table& package = *queue[i];
      const std::string kind = source_kind(package);
      const std::string name = normalize_name(package["name"].value_or(std::string()));
      if (kind == "registry" || kind == "git") {
        continue;
      }
      if (kind == "url" || kind == "path") {
        note(std::string(m_lock_origin) + ": uv checks the metadata of '" + name + "' (source " +
             kind + ") by fetching it; envlock did not");
      } else if (is_source_tree(kind)) {
        ENVLOCK_TRY(check_source_tree(package, name));
      }
      for (const auto* dep : dependencies_of(package)) {
        push(dep);
      }
    }
    return {};
  }

  std::vector<const toml::table*> dependencies_of(const toml::table& package) const {
    std::vector<const toml::table*> out;
    const auto add = [&](const toml::node* node) {
      const auto* array = node == nullptr ? nullptr : node->as_array();
      if (array == nullptr) {
        return;
      }
      for (const auto& item : *array) {
        const auto* dep = item.as_table();
        if (dep == nullptr) {
          continue;
        }
        const auto candidates =
            packages_named(normalize_name((*dep)["name"].value_or(std::string())));
        const std::string version = (*dep)["version"].value_or(std::string());
        for (const auto* c : candidates) {
          if (version.empty() || (*c)["version"].value_or(std::string()) == version) {
            out.push_back(c);
          }
        }
      }
    };
    add(package.get("dependencies"));
    for (const auto* key : {"optional-dependencies", "dev-dependencies"}) {
      if (const auto* lists = package.get_as<toml::table>(key); lists != nullptr) {
        for (const auto& [list, deps] : *lists) {
          add(&deps);
        }
      }
    }
    return out;
  }

  Status check_source_tree(const toml::table& package, const std::string& name) {
    const std::string dir = normal_path(".", source_value(package));
    const Member* member = nullptr;
    for (const auto& [n, m] : m_members) {
      if (m.dir == dir) {
        member = &m;
      }
    }
    std::map<std::string, Member> own;
    std::map<std::string, std::optional<bool>> none;
    Scope scope;
    if (member != nullptr) {
      scope = workspace_scope(member);
    } else {
      ENVLOCK_TRY_ASSIGN(auto py, read_pyproject(dir));
      if (!py) {
        note(std::string(m_lock_origin) + ": '" + name + "' (" + source_kind(package) + " " + dir +
             ") was not checked: " + (m_files.read ? "" : "no file of the project read, ") +
             in_folder(root_folder(), dir + "/pyproject.toml") + " is not there");
        return {};
      }
      // A local package outside the workspace is its own workspace
      // (`ProjectWorkspace::from_maybe_project_root`): its own sources, paths from its folder.
      const std::string own_name = py->name;
      own[own_name] = {own_name, dir, origin_of(dir), std::move(*py)};
      member = &own.begin()->second;
      scope.project_name = member->name;
      scope.project_dir = dir;
      scope.project = &member->py;
      scope.workspace_dir = dir;
      scope.workspace = &member->py;
      scope.members = &own;
      scope.required = &none;
      scope.origin = member->origin;
    }
    const Pyproject& py = member->py;
    if (!py.has_project) {
      note(at(member->origin, {}) + "no [project] table; uv builds '" + name +
           "' to read its metadata, envlock did not");
      return {};
    }
    const auto locked_version = package.get_as<std::string>("version");
    if (locked_version != nullptr) {
      if (py.dynamic_version) {
        // `SatisfiesResult::MismatchedDynamic`: a local package whose version became dynamic.
        refuse(at(member->origin, {}) + "the version of '" + name + "' is dynamic; " +
               std::string(m_lock_origin) + " recorded the version '" + locked_version->get() +
               "'");
      } else if (py.version) {
        // `SatisfiesResult::MismatchedVersion`: "Validate the static `version` metadata."
        const auto order = compare_versions(*py.version, locked_version->get());
        if (!order || *order != std::strong_ordering::equal) {
          refuse(at(member->origin, py.version_position) + "version is '" + *py.version + "', " +
                 std::string(m_lock_origin) + " recorded '" + locked_version->get() + "' for '" +
                 name + "'");
        }
      }
    } else if (py.version && !py.dynamic_version) {
      // A static version where the lock recorded none: uv builds, finds it static, refuses.
      refuse(at(member->origin, py.version_position) + "version is '" + *py.version + "', " +
             std::string(m_lock_origin) + " recorded no version for '" + name +
             "' (a dynamic version)");
    }
    if (py.dynamic_dependencies) {
      note(at(member->origin, {}) + "the dependencies of '" + name +
           "' are dynamic; uv builds it to read them, envlock did not compare them");
      return {};
    }
    const auto* metadata = package.get_as<toml::table>("metadata");
    m_list_origin = member->origin;
    // `satisfies_provides_extra`, from lock revision 1 on ("`provides-extra` was added in
    // Version 1 Revision 1").
    if (m_revision >= 1) {
      std::vector<std::string> have;
      if (const auto* provides =
              metadata == nullptr ? nullptr : metadata->get_as<toml::array>("provides-extras");
          provides != nullptr) {
        for (const auto& e : *provides) {
          have.push_back(normalize_name(e.value_or(std::string())));
        }
      }
      std::vector<std::string> want = py.extras;
      std::sort(have.begin(), have.end());
      have.erase(std::unique(have.begin(), have.end()), have.end());
      std::sort(want.begin(), want.end());
      want.erase(std::unique(want.begin(), want.end()), want.end());
      if (have != want) {
        refuse(at(member->origin, {}) + "[project.optional-dependencies] names the extras " +
               (want.empty() ? "(none)" : util::join(want, ", ")) + "; " +
               std::string(m_lock_origin) + " recorded " +
               (have.empty() ? "(none)" : util::join(have, ", ")));
      }
    }
    // `satisfies_requires_dist`: requires-dist, then the dependency groups.
    ENVLOCK_TRY_ASSIGN(auto requires_dist, lower_list(py, scope, true, [](const std::string& l) {
                         return l == "dependencies" || l.rfind("extra ", 0) == 0;
                       }));
    compare(std::move(requires_dist),
            lock_requirements(metadata == nullptr ? nullptr : metadata->get("requires-dist"),
                              "dependencies", std::string(m_lock_origin), true));
    ENVLOCK_TRY_ASSIGN(auto groups, lower_list(py, scope, true, [](const std::string& l) {
                         return l.rfind("group ", 0) == 0;
                       }));
    std::vector<Req> recorded;
    std::set<std::string> recorded_groups;
    if (const auto* dev =
            metadata == nullptr ? nullptr : metadata->get_as<toml::table>("requires-dev");
        dev != nullptr) {
      for (const auto& [group, list] : *dev) {
        const std::string g = normalize_name(group.str());
        auto reqs = lock_requirements(&list, "group " + g, std::string(m_lock_origin), false);
        if (!reqs.empty() || includes_empty_groups()) {
          recorded_groups.insert(g);
        }
        for (auto& r : reqs) {
          recorded.push_back(std::move(r));
        }
      }
    }
    // Empty groups count from lock revision 1 on (`includes_empty_groups`).
    std::set<std::string> wanted_groups;
    for (const auto& g : py.groups) {
      const bool empty =
          std::none_of(py.requirements.begin(), py.requirements.end(),
                       [&](const ListedRequirement& l) { return l.list == "group " + g; });
      if (!empty || includes_empty_groups()) {
        wanted_groups.insert(g);
      }
    }
    const auto has_list = [](const std::vector<Req>& v, const std::string& g) {
      return std::any_of(v.begin(), v.end(), [&](const Req& r) { return r.list == "group " + g; });
    };
    for (const auto& g : wanted_groups) {
      if (recorded_groups.count(g) == 0 && !has_list(groups, g)) {
        refuse(at(member->origin, {}) + "[dependency-groups] has the group '" + g + "', which " +
               std::string(m_lock_origin) + " did not record");
      }
    }
    for (const auto& g : recorded_groups) {
      if (wanted_groups.count(g) == 0 && !has_list(recorded, g)) {
        refuse(at(member->origin, {}) + "[dependency-groups] no longer has the group '" + g +
               "', which " + std::string(m_lock_origin) + " recorded");
      }
    }
    compare(std::move(groups), std::move(recorded));
    return {};
  }

  [[nodiscard]] bool includes_empty_groups() const { return m_revision >= 1; }

  const Pyproject& m_root;
  std::string_view m_root_origin;
  const toml::table& m_lock;
  std::string_view m_lock_origin;
  const ProjectFiles& m_files;
  SatisfiesResult& m_result;
  std::int64_t m_revision = 0;
  PythonRange m_lock_python;
  std::map<std::string, Member> m_members;
  bool m_members_known = true;
  std::set<std::string> m_unread_members;
  std::map<std::string, std::optional<bool>> m_required;
  std::string m_list_origin;
  const toml::table* m_root_doc = nullptr;
};

// A marker that holds on no platform: "sys_platform == 'never'", the idiom uv's documentation
// gives for keeping a package out (spaces and quotes as written aside).
bool never_marker(std::string marker) {
  std::erase_if(marker, [](char c) { return c == ' ' || c == '"' || c == '\''; });
  return marker == "sys_platform==never";
}

std::vector<std::string> overridden_away(const toml::node* node) {
  std::vector<std::string> out;
  const auto* array = node == nullptr ? nullptr : node->as_array();
  if (array == nullptr) {
    return out;
  }
  for (const auto& item : *array) {
    const auto* table = item.as_table();
    if (table != nullptr && never_marker((*table)["marker"].value_or(std::string()))) {
      out.push_back(normalize_name((*table)["name"].value_or(std::string())));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Walks the dependencies (plain, optional and dev) from every workspace member, skipping the
// names in `away` and the edges marked never; what is locked but not reached is never installed.
std::vector<std::string> unreachable(const toml::table& doc, const std::vector<std::string>& away) {
  std::map<std::string, std::vector<std::string>> edges;
  std::set<std::string> locked;
  std::vector<std::string> todo;
  const auto* packages = doc.get_as<toml::array>("package");
  if (packages == nullptr) {
    return {};
  }
  const auto add_edges = [](const toml::node* node, std::vector<std::string>& to) {
    const auto* array = node == nullptr ? nullptr : node->as_array();
    if (array == nullptr) {
      return;
    }
    for (const auto& item : *array) {
      const auto* table = item.as_table();
      if (table != nullptr && !never_marker((*table)["marker"].value_or(std::string()))) {
        to.push_back(normalize_name((*table)["name"].value_or(std::string())));
      }
    }
  };
  for (const auto& node : *packages) {
    const auto* table = node.as_table();
    if (table == nullptr) {
      continue;
    }
    const std::string name = normalize_name((*table)["name"].value_or(std::string()));
    locked.insert(name);
    auto& to = edges[name];
    add_edges(table->get("dependencies"), to);
    for (const auto* key : {"optional-dependencies", "dev-dependencies"}) {
      if (const auto* lists = table->get_as<toml::table>(key); lists != nullptr) {
        for (const auto& [list, deps] : *lists) {
          add_edges(&deps, to);
        }
      }
    }
    const auto* source = table->get_as<toml::table>("source");
    if (source != nullptr && (source->contains("editable") || source->contains("virtual"))) {
      todo.push_back(name);
    }
  }
  if (todo.empty()) {
    return {};
  }
  std::set<std::string> reached;
  while (!todo.empty()) {
    const std::string name = todo.back();
    todo.pop_back();
    if (std::find(away.begin(), away.end(), name) != away.end() || !reached.insert(name).second) {
      continue;
    }
    for (const auto& next : edges[name]) {
      todo.push_back(next);
    }
  }
  std::vector<std::string> out;
  std::set_difference(locked.begin(), locked.end(), reached.begin(), reached.end(),
                      std::back_inserter(out));
  return out;
}

} // namespace

Result<SatisfiesResult> check_satisfies(std::string_view pyproject,
                                        std::string_view pyproject_origin, std::string_view uv_lock,
                                        std::string_view lock_origin, const ProjectFiles& files) {
  ENVLOCK_TRY_ASSIGN(const Pyproject project, parse_pyproject(pyproject, pyproject_origin));
  toml::table doc;
  try {
    doc = toml::parse(uv_lock, lock_origin);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return input_error(std::string(lock_origin) + ":" + std::to_string(where.line) + ":" +
                       std::to_string(where.column) + ": " + std::string(e.description()));
  }
  SatisfiesResult result;
  if (project.has_project) {
    bool found = false;
    if (const auto* packages = doc.get_as<toml::array>("package"); packages != nullptr) {
      for (const auto& node : *packages) {
        const auto* table = node.as_table();
        found = found || (table != nullptr &&
                          normalize_name((*table)["name"].value_or(std::string())) == project.name);
      }
    }
    if (!found) {
      result.moved.push_back({std::string(lock_origin) + ": no package for the project '" +
                              project.name +
                              "' (source \".\"); uv.lock was made for another project"});
      return result;
    }
  }
  Checker checker(project, pyproject_origin, doc, lock_origin, files, result);
  toml::table root_doc;
  try {
    root_doc = toml::parse(pyproject, pyproject_origin); // parse_pyproject read it already
    checker.set_root_doc(&root_doc);
  } catch (const toml::parse_error&) {
  }
  ENVLOCK_TRY(checker.run());
  const auto* manifest = doc.get_as<toml::table>("manifest");
  result.never_installed =
      unreachable(doc, manifest == nullptr ? std::vector<std::string>()
                                           : overridden_away(manifest->get("overrides")));
  return result;
}

} // namespace envlock::uv
