#include "uv/sync_selection.hpp"

#include "util/strings.hpp"
#include "uv/marker.hpp"
#include "uv/requirement.hpp"
#include "uv/specifier.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <toml++/toml.h>
#include <tuple>

namespace envlock::uv {

namespace {

// What `uv sync` was asked for (crates/uv/src/settings.rs, SyncSettings::resolve).
struct SyncOptions {
  std::set<std::string> groups;
  std::set<std::string> no_groups;
  bool no_default_groups = false;
  bool only_groups = false; // --only-group, --only-dev: the project and its dependencies left out
  bool all_groups = false;
  std::set<std::string> extras;
  std::set<std::string> no_extras;
  bool all_extras = false;
  bool no_install_project = false;
  bool no_install_workspace = false;
  std::set<std::string> no_install_packages;
  std::vector<std::string> packages;
  bool all_packages = false;
  std::string python;
  std::vector<std::string> notes;
};

// The options that take a value and do not change the set (they are skipped with their value).
bool takes_value(std::string_view option) {
  static const std::set<std::string_view> k_options = {"--index",
                                                       "--default-index",
                                                       "--index-url",
                                                       "--extra-index-url",
                                                       "--find-links",
                                                       "-f",
                                                       "--index-strategy",
                                                       "--keyring-provider",
                                                       "--resolution",
                                                       "--prerelease",
                                                       "--config-setting",
                                                       "-C",
                                                       "--link-mode",
                                                       "--reinstall-package",
                                                       "--refresh-package",
                                                       "--upgrade-package",
                                                       "-P",
                                                       "--exclude-newer",
                                                       "--cache-dir",
                                                       "--directory",
                                                       "--project",
                                                       "--config-file",
                                                       "--color",
                                                       "--python-platform",
                                                       "--no-binary-package",
                                                       "--no-build-package",
                                                       "--no-build-isolation-package",
                                                       "--script",
                                                       "--output-format"};
  return k_options.contains(option);
}

Result<SyncOptions> parse_options(const std::vector<std::string>& args) {
  SyncOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string option = args[i];
    std::string value;
    bool has_value = false;
    if (const auto eq = option.find('='); option.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = option.substr(eq + 1);
      option.resize(eq);
      has_value = true;
    }
    const auto next = [&]() -> Result<std::string> {
      if (has_value) {
        return value;
      }
      if (i + 1 >= args.size()) {
        return input_error("python.sync_args: " + option + " needs a value");
      }
      return args[++i];
    };
    if (option == "--dev") {
      o.groups.insert("dev");
    } else if (option == "--no-dev") {
      o.no_groups.insert("dev");
    } else if (option == "--only-dev") {
      o.only_groups = true;
      o.groups.insert("dev");
    } else if (option == "--group" || option == "--only-group" || option == "--no-group") {
      ENVLOCK_TRY_ASSIGN(const std::string name, next());
      (option == "--no-group" ? o.no_groups : o.groups).insert(normalize_name(name));
      o.only_groups = o.only_groups || option == "--only-group";
    } else if (option == "--all-groups") {
      o.all_groups = true;
    } else if (option == "--no-default-groups") {
      o.no_default_groups = true;
    } else if (option == "--extra" || option == "--no-extra") {
      ENVLOCK_TRY_ASSIGN(const std::string name, next());
      (option == "--extra" ? o.extras : o.no_extras).insert(normalize_name(name));
    } else if (option == "--all-extras") {
      o.all_extras = true;
    } else if (option == "--no-install-project") {
      o.no_install_project = true;
    } else if (option == "--no-install-workspace") {
      o.no_install_workspace = true;
    } else if (option == "--no-install-package") {
      ENVLOCK_TRY_ASSIGN(const std::string name, next());
      o.no_install_packages.insert(normalize_name(name));
    } else if (option == "--package") {
      ENVLOCK_TRY_ASSIGN(const std::string name, next());
      o.packages.push_back(normalize_name(name));
    } else if (option == "--all-packages") {
      o.all_packages = true;
    } else if (option == "--python" || option == "-p") {
      ENVLOCK_TRY_ASSIGN(o.python, next());
    } else if (takes_value(option)) {
      if (!has_value) {
        ++i;
      }
    } else if (option.rfind("-", 0) != 0) {
      o.notes.push_back("python.sync_args: '" + option + "' is not an option of uv sync; ignored");
    }
  }
  return o;
}

// One [[package]] and the edges it has.
struct Edge {
  std::string name;
  std::string version;
  std::string source;
  std::string marker;
  std::vector<std::string> extras;
};

struct Package {
  std::string name;
  std::string version;
  std::string source;  // "kind=value" pairs, sorted
  bool member = false; // editable or virtual: a workspace member
  bool root = false;   // its source is "."
  std::vector<Edge> dependencies;
  std::map<std::string, std::vector<Edge>> optional; // extra -> edges
  std::map<std::string, std::vector<Edge>> groups;   // group -> edges
  std::set<std::string> provides_extras;             // [package.metadata] provides-extras
};

std::string source_key(const toml::table* source) {
  if (source == nullptr) {
    return {};
  }
  std::vector<std::string> parts;
  for (const auto& [key, value] : *source) {
    parts.push_back(std::string(key.str()) + "=" + value.value_or(std::string()));
  }
  std::sort(parts.begin(), parts.end());
  return util::join(parts, ";");
}

std::vector<Edge> read_edges(const toml::node* node) {
  std::vector<Edge> out;
  const auto* array = node == nullptr ? nullptr : node->as_array();
  if (array == nullptr) {
    return out;
  }
  for (const auto& item : *array) {
    const auto* table = item.as_table();
    if (table == nullptr) {
      continue;
    }
    Edge edge;
    edge.name = normalize_name((*table)["name"].value_or(std::string()));
    edge.version = (*table)["version"].value_or(std::string());
    edge.source = source_key(table->get_as<toml::table>("source"));
    edge.marker = (*table)["marker"].value_or(std::string());
    if (const auto* extras = table->get_as<toml::array>("extra"); extras != nullptr) {
      for (const auto& e : *extras) {
        edge.extras.push_back(normalize_name(e.value_or(std::string())));
      }
    }
    out.push_back(std::move(edge));
  }
  return out;
}

std::map<std::string, std::vector<Edge>> read_edge_lists(const toml::table& table,
                                                         const char* key) {
  std::map<std::string, std::vector<Edge>> out;
  if (const auto* lists = table.get_as<toml::table>(key); lists != nullptr) {
    for (const auto& [name, edges] : *lists) {
      out[normalize_name(name.str())] = read_edges(&edges);
    }
  }
  return out;
}

std::vector<Package> read_packages(const toml::table& doc) {
  std::vector<Package> out;
  const auto* packages = doc.get_as<toml::array>("package");
  if (packages == nullptr) {
    return out;
  }
  for (const auto& node : *packages) {
    const auto* table = node.as_table();
    if (table == nullptr) {
      continue;
    }
    Package p;
    p.name = normalize_name((*table)["name"].value_or(std::string()));
    p.version = (*table)["version"].value_or(std::string());
    const auto* source = table->get_as<toml::table>("source");
    p.source = source_key(source);
    if (source != nullptr) {
      p.member = source->contains("editable") || source->contains("virtual");
      for (const auto* key : {"editable", "virtual", "directory"}) {
        p.root = p.root || (*source)[key].value_or(std::string()) == ".";
      }
    }
    p.dependencies = read_edges(table->get("dependencies"));
    p.optional = read_edge_lists(*table, "optional-dependencies");
    p.groups = read_edge_lists(*table, "dev-dependencies");
    if (const auto* metadata = table->get_as<toml::table>("metadata"); metadata != nullptr) {
      if (const auto* extras = metadata->get_as<toml::array>("provides-extras")) {
        for (const auto& e : *extras) {
          p.provides_extras.insert(normalize_name(e.value_or(std::string())));
        }
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

// The lowest Python requires-python allows: ">=3.12" gives "3.12".
std::string lowest_python(const std::string& requires_python) {
  const auto specifiers = parse_specifiers(requires_python);
  if (specifiers) {
    for (const auto& s : *specifiers) {
      if (s.op == ">=" || s.op == "~=" || s.op == "==") {
        std::string version = s.version;
        if (version.ends_with(".*")) {
          version.resize(version.size() - 2);
        }
        return version;
      }
    }
  }
  return {};
}

// uv's encoding of a project's extra and group in conflict markers ("extra-7-project-mlm").
std::string encoded(std::string_view kind, const std::string& package, const std::string& name) {
  return std::string(kind) + "-" + std::to_string(package.size()) + "-" + package + "-" + name;
}

class Walk {
public:
  Walk(const std::vector<Package>& packages, const MarkerEnvironment& environment)
      : m_packages(packages), m_environment(environment) {
    for (std::size_t i = 0; i < packages.size(); ++i) {
      m_by_name[packages[i].name].push_back(i);
    }
  }

  // Follows `edges` (and, for each package reached, its dependencies and the extras asked of it).
  Status follow(const std::vector<Edge>& edges) {
    for (const auto& edge : edges) {
      ENVLOCK_TRY_ASSIGN(const bool holds, evaluate_marker(edge.marker, m_environment));
      if (!holds) {
        continue;
      }
      const auto to = find(edge);
      if (!to) {
        continue;
      }
      ENVLOCK_TRY(visit(*to, ""));
      for (const auto& extra : edge.extras) {
        ENVLOCK_TRY(visit(*to, extra));
      }
    }
    return {};
  }

  // Reaches package `index` with `extra` ("" for the package itself).
  Status visit(std::size_t index, const std::string& extra) {
    if (!m_seen.insert({index, extra}).second) {
      return {};
    }
    const Package& p = m_packages[index];
    if (extra.empty()) {
      m_reached.insert(index);
      return follow(p.dependencies);
    }
    const auto it = p.optional.find(extra);
    return it == p.optional.end() ? Status{} : follow(it->second);
  }

  const std::set<std::size_t>& reached() const { return m_reached; }

private:
  std::optional<std::size_t> find(const Edge& edge) const {
    const auto it = m_by_name.find(edge.name);
    if (it == m_by_name.end()) {
      return std::nullopt;
    }
    for (const auto index : it->second) {
      const Package& p = m_packages[index];
      if ((edge.version.empty() || edge.version == p.version) &&
          (edge.source.empty() || edge.source == p.source)) {
        return index;
      }
    }
    return std::nullopt;
  }

  const std::vector<Package>& m_packages;
  const MarkerEnvironment& m_environment;
  std::map<std::string, std::vector<std::size_t>> m_by_name;
  std::set<std::pair<std::size_t, std::string>> m_seen;
  std::set<std::size_t> m_reached;
};

Result<toml::table> parse_toml_file(std::string_view text, std::string_view origin) {
  try {
    return toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return input_error(std::string(origin) + ":" + std::to_string(where.line) + ":" +
                       std::to_string(where.column) + ": " + std::string(e.description()));
  }
}

// The workspace members `uv sync` installs into: --package's, every member for --all-packages
// or a workspace whose root is no project, else the project (source ".").
Result<std::vector<std::size_t>> targets(const std::vector<Package>& packages,
                                         const SyncOptions& o) {
  std::vector<std::size_t> out;
  for (const auto& name : o.packages) {
    const auto it = std::find_if(packages.begin(), packages.end(),
                                 [&](const Package& p) { return p.member && p.name == name; });
    if (it == packages.end()) {
      return input_error("python.sync_args: --package " + name +
                         " names no workspace member of uv.lock");
    }
    out.push_back(static_cast<std::size_t>(it - packages.begin()));
  }
  if (!out.empty()) {
    return out;
  }
  for (std::size_t i = 0; i < packages.size(); ++i) {
    if (packages[i].root && !o.all_packages) {
      return std::vector<std::size_t>{i};
    }
  }
  for (std::size_t i = 0; i < packages.size(); ++i) {
    if (packages[i].member) {
      out.push_back(i);
    }
  }
  return out;
}

} // namespace

Result<SyncSelection> sync_selection(const SyncFiles& files,
                                     const std::vector<std::string>& sync_args,
                                     std::string_view platform, std::string_view python) {
  const std::string_view origin = files.uv_lock_origin;
  ENVLOCK_TRY_ASSIGN(const toml::table doc, parse_toml_file(files.uv_lock, origin));
  ENVLOCK_TRY_ASSIGN(const toml::table pyproject,
                     parse_toml_file(files.pyproject, files.pyproject_origin));
  ENVLOCK_TRY_ASSIGN(const SyncOptions o, parse_options(sync_args));
  // tool.uv.default-groups: a list, or "all" (crates/uv-workspace/src/pyproject.rs).
  bool all_default_groups = false;
  std::set<std::string> default_groups = {"dev"};
  const auto* tool_uv = pyproject.at_path("tool.uv").as_table();
  if (const auto* node = tool_uv == nullptr ? nullptr : tool_uv->get("default-groups")) {
    default_groups.clear();
    all_default_groups = node->value_or(std::string()) == "all";
    if (const auto* list = node->as_array(); list != nullptr) {
      for (const auto& group : *list) {
        default_groups.insert(normalize_name(group.value_or(std::string())));
      }
    }
  }
  const std::vector<Package> packages = read_packages(doc);
  ENVLOCK_TRY_ASSIGN(const std::vector<std::size_t> roots, targets(packages, o));
  std::string version = o.python.empty() ? std::string(python) : o.python;
  if (version.empty()) {
    version = lowest_python(doc["requires-python"].value_or(std::string()));
  }
  MarkerEnvironment environment = linux_environment(platform, version);
  // The extras and groups of each target, as markers name them.
  std::map<std::size_t, std::pair<std::set<std::string>, std::set<std::string>>> chosen;
  for (const auto root : roots) {
    const Package& p = packages[root];
    std::set<std::string> extras;
    for (const auto& [extra, edges] : p.optional) {
      if ((o.all_extras || o.extras.contains(extra)) && !o.no_extras.contains(extra)) {
        extras.insert(extra);
      }
    }
    // uv refuses an extra the project does not define; a root that records neither extras nor
    // optional dependencies cannot tell, and is not judged.
    const bool knows_extras = !p.optional.empty() || !p.provides_extras.empty();
    for (const auto& extra : o.extras) {
      if (knows_extras && !p.optional.contains(extra) && !p.provides_extras.contains(extra) &&
          roots.size() == 1) {
        return input_error("python.sync_args: --extra " + extra + ": " + std::string(origin) +
                           " locks no extra '" + extra + "' for '" + p.name + "'");
      }
    }
    std::set<std::string> groups = o.groups;
    if (!o.only_groups && !o.no_default_groups) {
      groups.insert(default_groups.begin(), default_groups.end());
    }
    if (o.all_groups || (all_default_groups && !o.only_groups && !o.no_default_groups)) {
      for (const auto& [group, edges] : p.groups) {
        groups.insert(group);
      }
    }
    for (const auto& group : o.no_groups) {
      groups.erase(group);
    }
    for (const auto& extra : extras) {
      environment.extras.insert(extra);
      environment.extras.insert(encoded("extra", p.name, extra));
    }
    for (const auto& group : groups) {
      environment.extras.insert(encoded("group", p.name, group));
    }
    chosen[root] = {extras, groups};
  }
  Walk walk(packages, environment);
  std::set<std::size_t> left_out; // installed into by uv sync's options, their dependencies kept
  for (const auto root : roots) {
    const auto& [extras, groups] = chosen[root];
    const Package& p = packages[root];
    if (!o.only_groups) {
      ENVLOCK_TRY(walk.visit(root, ""));
      for (const auto& extra : extras) {
        ENVLOCK_TRY(walk.visit(root, extra));
      }
      if (o.no_install_project) {
        left_out.insert(root);
      }
    }
    for (const auto& group : groups) {
      if (const auto it = p.groups.find(group); it != p.groups.end()) {
        ENVLOCK_TRY(walk.follow(it->second));
      }
    }
  }
  SyncSelection out;
  out.notes = o.notes;
  for (std::size_t i = 0; i < packages.size(); ++i) {
    const Package& p = packages[i];
    const bool kept = walk.reached().contains(i) && !left_out.contains(i) &&
                      !(o.no_install_workspace && p.member) &&
                      !o.no_install_packages.contains(p.name);
    (kept ? out.selected : out.not_selected).push_back({p.name, p.version});
  }
  const auto order = [](const SelectedPackage& a, const SelectedPackage& b) {
    return std::tie(a.name, a.version) < std::tie(b.name, b.version);
  };
  std::sort(out.selected.begin(), out.selected.end(), order);
  std::sort(out.not_selected.begin(), out.not_selected.end(), order);
  return out;
}

} // namespace envlock::uv
