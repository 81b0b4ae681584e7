#include "uv/lock_satisfies.hpp"

#include "util/strings.hpp"
#include "uv/pyproject.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <toml++/toml.h>

namespace envlock::uv {

namespace {

// One requirement reduced to what is compared: "name[extras] specifiers (source)".
struct Compared {
  std::string text;
  TextPosition position; // in pyproject.toml; 0 for uv.lock's side
};

using Lists = std::map<std::pair<std::string, std::string>, std::vector<Compared>>;

std::string compared_text(const std::string& name, const std::vector<std::string>& extras,
                          const std::string& specifiers, const std::string& source) {
  std::string out = name;
  if (!extras.empty()) {
    out += "[" + util::join(extras, ",") + "]";
  }
  out += specifiers;
  if (!source.empty()) {
    out += " (" + source + ")";
  }
  return out;
}

std::string git_text(std::string url, std::string ref) {
  // uv.lock writes "URL?rev=REF" (or tag=, branch=) and "#subdirectory=..." after it.
  std::string fragment;
  if (const auto hash = url.find('#'); hash != std::string::npos) {
    fragment = url.substr(hash);
    url.resize(hash);
  }
  if (const auto query = url.find('?'); query != std::string::npos) {
    for (const auto& part : util::split(url.substr(query + 1), '&')) {
      const auto eq = part.find('=');
      const std::string key = part.substr(0, eq);
      if (eq != std::string::npos && (key == "rev" || key == "tag" || key == "branch")) {
        ref = part.substr(eq + 1);
      }
    }
    url.resize(query);
  }
  return "git " + url + (ref.empty() ? "" : "@" + ref) + fragment;
}

std::string source_text(const UvSource& source) {
  if (source.kind == "git") {
    return git_text(source.value, source.ref);
  }
  return source.kind + " " + source.value;
}

// The source a uv.lock requirement table records, in source_text's form.
std::string lock_source(const toml::table& table) {
  for (const auto* key : {"git", "url", "path", "editable", "directory", "index"}) {
    if (const auto* value = table.get_as<std::string>(key); value != nullptr) {
      const std::string k = key;
      if (k == "git") {
        return git_text(value->get(), "");
      }
      return (k == "editable" || k == "directory" ? std::string("path") : k) + " " + value->get();
    }
  }
  return "";
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

std::vector<std::string> normalized_extras(const toml::table& table) {
  std::vector<std::string> out;
  if (const auto* extras = table.get_as<toml::array>("extras"); extras != nullptr) {
    for (const auto& e : *extras) {
      out.push_back(normalize_name(e.value_or(std::string())));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void add_lock_requirement(Lists& lists, const std::string& list, const toml::table& table,
                          const std::set<std::string>& sources_not_compared) {
  const std::string name = normalize_name(table["name"].value_or(std::string()));
  std::string specifiers;
  if (const auto* text = table.get_as<std::string>("specifier"); text != nullptr) {
    if (auto parsed = parse_specifiers(text->get())) {
      specifiers = normal_form(*parsed);
    } else {
      specifiers = text->get();
    }
  }
  const std::string source = sources_not_compared.count(name) != 0 ? "" : lock_source(table);
  if (!source.empty() && source.rfind("index ", 0) != 0) {
    specifiers.clear(); // a direct source: its version is the source's
  }
  lists[{list, name}].push_back(
      {compared_text(name, normalized_extras(table), specifiers, source), {}});
}

void add_lock_array(Lists& lists, const toml::node* node, const std::string& list,
                    const std::set<std::string>& sources_not_compared, bool split_extras) {
  const auto* array = node == nullptr ? nullptr : node->as_array();
  if (array == nullptr) {
    return;
  }
  for (const auto& item : *array) {
    if (const auto* table = item.as_table(); table != nullptr) {
      const std::string extra = split_extras
                                    ? extra_of(table->get("marker") == nullptr
                                                   ? std::string()
                                                   : (*table)["marker"].value_or(std::string()))
                                    : "";
      add_lock_requirement(lists, extra.empty() ? list : "extra " + extra, *table,
                           sources_not_compared);
    }
  }
}

void add_pyproject_requirement(Lists& lists, const ListedRequirement& listed, const Pyproject& p,
                               const std::set<std::string>& sources_not_compared) {
  const Requirement& r = listed.requirement;
  std::string source;
  std::string specifiers = normal_form(r.specifiers);
  const bool is_override = listed.list == "overrides" || listed.list == "constraints";
  if (!r.url.empty()) {
    std::string url = r.url;
    if (url.rfind("git+", 0) == 0) {
      url = url.substr(4);
      std::string ref;
      const auto scheme = url.find("://");
      const auto at = url.rfind('@');
      if (at != std::string::npos && scheme != std::string::npos && at > scheme + 3 &&
          url.find('/', scheme + 3) < at) {
        ref = url.substr(at + 1);
        url.resize(at);
      }
      source = git_text(url, ref);
    } else if (url.rfind("file://", 0) == 0) {
      source = "path " + url.substr(7);
    } else {
      source = "url " + url;
    }
  } else if (const auto found = p.sources.find(r.name);
             !is_override && found != p.sources.end() && !found->second.kind.empty()) {
    source = source_text(found->second);
  }
  if (sources_not_compared.count(r.name) != 0) {
    source.clear();
  }
  if (!source.empty() && source.rfind("index ", 0) != 0) {
    specifiers.clear();
  }
  lists[{listed.list, r.name}].push_back(
      {compared_text(r.name, r.extras, specifiers, source), listed.position});
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
  return "[tool.uv] " + list.substr(0, list.size() - 1) + "-dependencies";
}

std::string at(std::string_view origin, TextPosition where) {
  std::string out(origin);
  if (where.line > 0) {
    out += ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
  }
  return out + ": ";
}

void compare_lists(const Lists& wanted, const Lists& recorded, std::string_view origin,
                   std::vector<Unsatisfied>& out) {
  std::set<std::pair<std::string, std::string>> keys;
  for (const auto& [key, v] : wanted) {
    keys.insert(key);
  }
  for (const auto& [key, v] : recorded) {
    keys.insert(key);
  }
  const std::vector<Compared> none;
  for (const auto& key : keys) {
    const auto w = wanted.find(key);
    const auto r = recorded.find(key);
    std::vector<Compared> a = w == wanted.end() ? none : w->second;
    std::vector<Compared> b = r == recorded.end() ? none : r->second;
    const auto by_text = [](const Compared& x, const Compared& y) { return x.text < y.text; };
    std::sort(a.begin(), a.end(), by_text);
    std::sort(b.begin(), b.end(), by_text);
    // Sets, as uv compares them: a requirement listed twice is one requirement.
    const auto same_text = [](const Compared& x, const Compared& y) { return x.text == y.text; };
    a.erase(std::unique(a.begin(), a.end(), same_text), a.end());
    b.erase(std::unique(b.begin(), b.end(), same_text), b.end());
    std::vector<Compared> only_a;
    std::vector<Compared> only_b;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(only_a),
                        by_text);
    std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(only_b),
                        by_text);
    const std::string title = list_title(key.first);
    if (only_a.size() == 1 && only_b.size() == 1) {
      out.push_back({at(origin, only_a[0].position) + title + " requires '" + only_a[0].text +
                     "', uv.lock recorded '" + only_b[0].text + "'"});
      continue;
    }
    for (const auto& c : only_a) {
      out.push_back({at(origin, c.position) + title + " requires '" + c.text +
                     "', which uv.lock did not record"});
    }
    for (const auto& c : only_b) {
      out.push_back({at(origin, {}) + title + " no longer requires '" + c.text +
                     "', which uv.lock recorded"});
    }
  }
}

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

const toml::table* root_package(const toml::table& doc, const std::string& name) {
  const auto* packages = doc.get_as<toml::array>("package");
  if (packages == nullptr) {
    return nullptr;
  }
  for (const auto& node : *packages) {
    const auto* table = node.as_table();
    if (table == nullptr || normalize_name((*table)["name"].value_or(std::string())) != name) {
      continue;
    }
    const auto* source = table->get_as<toml::table>("source");
    if (source == nullptr) {
      continue;
    }
    for (const auto* key : {"editable", "virtual", "directory"}) {
      if ((*source)[key].value_or(std::string()) == ".") {
        return table;
      }
    }
  }
  return nullptr;
}

Result<toml::table> parse_toml(std::string_view text, std::string_view origin) {
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return input_error(std::string(origin) + ":" + std::to_string(where.line) + ":" +
                       std::to_string(where.column) + ": " + std::string(e.description()));
  }
}

} // namespace

Result<SatisfiesResult> check_satisfies(std::string_view pyproject,
                                        std::string_view pyproject_origin, std::string_view uv_lock,
                                        std::string_view lock_origin) {
  ENVLOCK_TRY_ASSIGN(const Pyproject project, parse_pyproject(pyproject, pyproject_origin));
  ENVLOCK_TRY_ASSIGN(const toml::table doc, parse_toml(uv_lock, lock_origin));
  SatisfiesResult result;
  std::set<std::string> sources_not_compared;
  for (const auto& [name, source] : project.sources) {
    if (source.kind.empty()) {
      sources_not_compared.insert(name);
    }
  }
  Lists wanted;
  Lists recorded;
  const bool dynamic = project.dynamic_dependencies;
  for (const auto& listed : project.requirements) {
    const bool of_project = listed.list == "dependencies" || listed.list.rfind("extra ", 0) == 0;
    if (!(dynamic && of_project)) {
      add_pyproject_requirement(wanted, listed, project, sources_not_compared);
    }
  }
  const auto* manifest = doc.get_as<toml::table>("manifest");
  if (manifest != nullptr) {
    add_lock_array(recorded, manifest->get("overrides"), "overrides", {}, false);
    add_lock_array(recorded, manifest->get("constraints"), "constraints", {}, false);
  }
  if (!project.has_project) {
    result.notes.push_back(std::string(pyproject_origin) +
                           ": no [project] table; only the dependency groups, overrides and "
                           "constraints were compared with " +
                           std::string(lock_origin));
  } else if (const auto* root = root_package(doc, project.name); root == nullptr) {
    result.moved.push_back({std::string(lock_origin) + ": no package for the project '" +
                            project.name +
                            "' (source \".\"); uv.lock was made for another project"});
    return result;
  } else {
    const auto* metadata = root->get_as<toml::table>("metadata");
    if (dynamic) {
      result.notes.push_back(std::string(pyproject_origin) +
                             ": the project's dependencies are dynamic; only the dependency "
                             "groups, overrides and constraints were compared");
    } else if (metadata != nullptr) {
      add_lock_array(recorded, metadata->get("requires-dist"), "dependencies", sources_not_compared,
                     true);
    }
    if (metadata != nullptr) {
      if (const auto* dev = metadata->get_as<toml::table>("requires-dev"); dev != nullptr) {
        for (const auto& [group, list] : *dev) {
          add_lock_array(recorded, &list, "group " + normalize_name(group.str()),
                         sources_not_compared, false);
        }
      }
      if (const auto* provides = metadata->get_as<toml::array>("provides-extras");
          provides != nullptr && !dynamic) {
        std::vector<std::string> have;
        for (const auto& e : *provides) {
          have.push_back(normalize_name(e.value_or(std::string())));
        }
        std::vector<std::string> want = project.extras;
        std::sort(have.begin(), have.end());
        std::sort(want.begin(), want.end());
        if (have != want) {
          result.moved.push_back({std::string(pyproject_origin) +
                                  ": [project.optional-dependencies] names the extras " +
                                  (want.empty() ? "(none)" : util::join(want, ", ")) +
                                  "; uv.lock recorded " +
                                  (have.empty() ? "(none)" : util::join(have, ", "))});
        }
      }
    }
  }
  result.never_installed =
      unreachable(doc, manifest == nullptr ? std::vector<std::string>()
                                           : overridden_away(manifest->get("overrides")));
  // Groups uv.lock keeps no entry for are the empty ones; an empty list on both sides is equal.
  compare_lists(wanted, recorded, pyproject_origin, result.moved);
  if (project.requires_python && !project.workspace) {
    const auto lock_python = doc["requires-python"].value_or(std::string());
    const auto a = parse_specifiers(*project.requires_python);
    const auto b = parse_specifiers(lock_python);
    const bool same =
        a && b ? normal_form(*a) == normal_form(*b) : *project.requires_python == lock_python;
    if (!same) {
      result.moved.push_back({at(pyproject_origin, project.requires_python_position) +
                              "requires-python is '" + *project.requires_python +
                              "', uv.lock recorded '" + lock_python + "'"});
    }
  }
  if (!sources_not_compared.empty()) {
    std::vector<std::string> names(sources_not_compared.begin(), sources_not_compared.end());
    result.notes.push_back(std::string(pyproject_origin) + ": the sources of " +
                           util::join(names, ", ") +
                           " (a workspace member, or chosen by marker) were not compared");
  }
  return result;
}

} // namespace envlock::uv
