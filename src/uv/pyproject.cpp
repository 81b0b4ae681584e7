#include "uv/pyproject.hpp"

#include <algorithm>
#include <set>
#include <toml++/toml.h>

namespace envlock::uv {

namespace {

TextPosition position_of(const toml::node& node) {
  const auto& begin = node.source().begin;
  return {static_cast<int>(begin.line), static_cast<int>(begin.column)};
}

Error error_at(std::string_view origin, const toml::node& node, const std::string& message) {
  const auto where = position_of(node);
  return input_error(std::string(origin) + ":" + std::to_string(where.line) + ":" +
                     std::to_string(where.column) + ": " + message);
}

class ListReader {
public:
  ListReader(std::string_view origin, Pyproject& out) : m_origin(origin), m_out(out) {}

  // Every string of `array` (at `key`, for messages) as a requirement of `list`.
  Status strings(const toml::node* node, const std::string& key, const std::string& list) {
    if (node == nullptr) {
      return {};
    }
    const auto* array = node->as_array();
    if (array == nullptr) {
      return error_at(m_origin, *node, "'" + key + "' must be a list of requirements");
    }
    for (const auto& item : *array) {
      ENVLOCK_TRY(one(item, key, list));
    }
    return {};
  }

  // A [dependency-groups] group: strings and {include-group = "other"} tables.
  Status group(const toml::table& groups, const std::string& name, const std::string& list,
               std::set<std::string>& visiting) {
    const auto* node = groups.get(name);
    const std::string key = "dependency-groups." + name;
    if (node == nullptr) {
      return {};
    }
    const auto* array = node->as_array();
    if (array == nullptr) {
      return error_at(m_origin, *node, "'" + key + "' must be a list of requirements");
    }
    if (!visiting.insert(name).second) {
      return error_at(m_origin, *node, "'" + key + "' includes itself");
    }
    for (const auto& item : *array) {
      if (const auto* table = item.as_table(); table != nullptr) {
        const auto* include = table->get_as<std::string>("include-group");
        if (include == nullptr || table->size() != 1) {
          return error_at(m_origin, item,
                          "an entry of '" + key +
                              "' must be a requirement or {include-group = ...}");
        }
        const std::string included = include->get();
        if (const auto target = find_group(groups, included)) {
          ENVLOCK_TRY(group(groups, *target, list, visiting));
        } else {
          return error_at(m_origin, item,
                          "'" + key + "' includes '" + included +
                              "', which is not a dependency group");
        }
        continue;
      }
      ENVLOCK_TRY(one(item, key, list));
    }
    visiting.erase(name);
    return {};
  }

  // The key of [dependency-groups] whose normalized name is `name`'s.
  static std::optional<std::string> find_group(const toml::table& groups, const std::string& name) {
    for (const auto& [key, value] : groups) {
      if (normalize_name(key.str()) == normalize_name(name)) {
        return std::string(key.str());
      }
    }
    return std::nullopt;
  }

private:
  Status one(const toml::node& item, const std::string& key, const std::string& list) {
    const auto* text = item.as_string();
    if (text == nullptr) {
      return error_at(m_origin, item, "an entry of '" + key + "' must be a requirement string");
    }
    auto requirement = parse_requirement(text->get());
    if (!requirement) {
      return error_at(m_origin, item, requirement.error().message);
    }
    m_out.requirements.push_back({list, text->get(), std::move(*requirement), position_of(item)});
    return {};
  }

  std::string_view m_origin;
  Pyproject& m_out;
};

std::string text_of(const toml::table& table, std::string_view key) {
  const auto* value = table.get_as<std::string>(key);
  return value == nullptr ? std::string() : value->get();
}

std::optional<bool> bool_of(const toml::table& table, std::string_view key) {
  if (const auto* value = table.get_as<bool>(key); value != nullptr) {
    return value->get();
  }
  return std::nullopt;
}

UvSource source_entry(const toml::table& table) {
  UvSource out;
  out.position = position_of(table);
  out.marker = text_of(table, "marker");
  out.extra = table.contains("extra") ? normalize_name(text_of(table, "extra")) : "";
  out.group = table.contains("group") ? normalize_name(text_of(table, "group")) : "";
  out.editable = bool_of(table, "editable");
  out.package = bool_of(table, "package");
  out.subdirectory = text_of(table, "subdirectory");
  if (table.contains("git")) {
    out.kind = "git";
    out.value = text_of(table, "git");
    for (const auto* key : {"rev", "tag", "branch"}) {
      if (table.contains(key)) {
        out.ref_kind = key;
        out.ref = text_of(table, key);
      }
    }
    out.git_path = text_of(table, "path");
    out.lfs = bool_of(table, "lfs").value_or(false);
  } else if (table.contains("url")) {
    out.kind = "url";
    out.value = text_of(table, "url");
  } else if (table.contains("path")) {
    out.kind = "path";
    out.value = text_of(table, "path");
  } else if (table.contains("index")) {
    out.kind = "index";
    out.value = text_of(table, "index");
  } else if (table.contains("workspace")) {
    out.kind = "workspace";
    out.workspace = bool_of(table, "workspace").value_or(false);
  }
  return out;
}

std::vector<UvSource> sources_of(const toml::node& node) {
  std::vector<UvSource> out;
  if (const auto* table = node.as_table(); table != nullptr) {
    out.push_back(source_entry(*table));
  } else if (const auto* array = node.as_array(); array != nullptr) {
    for (const auto& item : *array) {
      if (const auto* entry = item.as_table(); entry != nullptr) {
        out.push_back(source_entry(*entry));
      }
    }
  }
  return out;
}

std::vector<std::string> strings_of(const toml::node* node) {
  std::vector<std::string> out;
  if (const auto* array = node == nullptr ? nullptr : node->as_array(); array != nullptr) {
    for (const auto& item : *array) {
      if (const auto* text = item.as_string(); text != nullptr) {
        out.push_back(text->get());
      }
    }
  }
  return out;
}

} // namespace

Result<Pyproject> parse_pyproject(std::string_view text, std::string_view origin) {
  toml::table doc;
  try {
    doc = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return input_error(std::string(origin) + ":" + std::to_string(where.line) + ":" +
                       std::to_string(where.column) + ": " + std::string(e.description()));
  }
  Pyproject out;
  ListReader lists(origin, out);
  if (const auto* project = doc.get_as<toml::table>("project"); project != nullptr) {
    out.has_project = true;
    out.name = normalize_name(text_of(*project, "name"));
    if (const auto* version = project->get_as<std::string>("version"); version != nullptr) {
      out.version = version->get();
      out.version_position = position_of(*version);
    }
    if (const auto* python = project->get_as<std::string>("requires-python"); python != nullptr) {
      out.requires_python = python->get();
      out.requires_python_position = position_of(*python);
    }
    if (const auto* dynamic = project->get_as<toml::array>("dynamic"); dynamic != nullptr) {
      for (const auto& item : *dynamic) {
        const auto value = item.value_or(std::string());
        out.dynamic_dependencies |= value == "dependencies" || value == "optional-dependencies";
        out.dynamic_version |= value == "version";
      }
    }
    ENVLOCK_TRY(
        lists.strings(project->get("dependencies"), "project.dependencies", "dependencies"));
    if (const auto* optional = project->get("optional-dependencies"); optional != nullptr) {
      const auto* extras = optional->as_table();
      if (extras == nullptr) {
        return error_at(origin, *optional, "'project.optional-dependencies' must be a table");
      }
      for (const auto& [extra, list] : *extras) {
        const std::string name = normalize_name(extra.str());
        out.extras.push_back(name);
        ENVLOCK_TRY(lists.strings(
            &list, "project.optional-dependencies." + std::string(extra.str()), "extra " + name));
      }
    }
  }
  if (const auto* groups = doc.get_as<toml::table>("dependency-groups"); groups != nullptr) {
    for (const auto& [group, list] : *groups) {
      std::set<std::string> visiting;
      ENVLOCK_TRY(lists.group(*groups, std::string(group.str()),
                              "group " + normalize_name(group.str()), visiting));
      out.groups.push_back(normalize_name(group.str()));
    }
  }
  out.has_build_system = doc.contains("build-system");
  if (const auto* uv = doc["tool"]["uv"].as_table(); uv != nullptr) {
    out.workspace = uv->contains("workspace");
    out.uv_package = bool_of(*uv, "package");
    if (const auto* workspace = uv->get_as<toml::table>("workspace"); workspace != nullptr) {
      out.workspace_members = strings_of(workspace->get("members"));
      out.workspace_exclude = strings_of(workspace->get("exclude"));
    }
    if (uv->contains("dev-dependencies")) {
      out.groups.push_back("dev");
    }
    ENVLOCK_TRY(
        lists.strings(uv->get("dev-dependencies"), "tool.uv.dev-dependencies", "group dev"));
    ENVLOCK_TRY(lists.strings(uv->get("override-dependencies"), "tool.uv.override-dependencies",
                              "overrides"));
    ENVLOCK_TRY(lists.strings(uv->get("build-constraint-dependencies"),
                              "tool.uv.build-constraint-dependencies", "build-constraints"));
    ENVLOCK_TRY(lists.strings(uv->get("constraint-dependencies"), "tool.uv.constraint-dependencies",
                              "constraints"));
    if (const auto* index = uv->get_as<toml::array>("index"); index != nullptr) {
      for (const auto& entry : *index) {
        if (const auto* table = entry.as_table(); table != nullptr) {
          out.indexes.push_back({text_of(*table, "name"), text_of(*table, "url"),
                                 bool_of(*table, "default").value_or(false)});
        }
      }
    }
    if (const auto* sources = uv->get_as<toml::table>("sources"); sources != nullptr) {
      for (const auto& [name, source] : *sources) {
        out.sources[normalize_name(name.str())] = sources_of(source);
      }
    }
  }
  std::sort(out.groups.begin(), out.groups.end());
  out.groups.erase(std::unique(out.groups.begin(), out.groups.end()), out.groups.end());
  return out;
}

} // namespace envlock::uv
