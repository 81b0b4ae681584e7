#include "manifest/yaml_load.hpp"

#include "manifest/scalar.hpp"

#include <map>
#include <string>
#include <vector>
#include <yaml-cpp/depthguard.h>

namespace envlock::manifest {

namespace {

Location location_of_mark(const YAML::Mark& mark) {
  if (mark.is_null() || mark.line < 0) {
    return {};
  }
  return Location{mark.line, mark.column};
}

std::string in_map(const std::string& path) {
  return path.empty() ? std::string() : " in '" + path + "'";
}

// Walks the whole document once, in document order, for the faults no schema rule should see.
class StructureCheck {
public:
  explicit StructureCheck(const SourceText& source) : m_source(source) {}

  Status check(const YAML::Node& node, const std::string& path, int depth) {
    if (++m_nodes > k_max_nodes) {
      return m_source.error_at(location_of(node), "more than " + std::to_string(k_max_nodes) +
                                                      " YAML nodes (each use of an alias counts)");
    }
    if (!is_supported_tag(node.Tag())) {
      return m_source.error_at(location_of(node), "unsupported YAML tag '" + node.Tag() + "'");
    }
    if (node.IsMap() || node.IsSequence()) {
      if (depth > k_max_depth) {
        return m_source.error_at(location_of(node),
                                 "nesting deeper than " + std::to_string(k_max_depth) + " levels");
      }
    }
    if (node.IsSequence()) {
      std::size_t index = 0;
      for (const auto& item : node) {
        ENVLOCK_TRY(check(item, path + "[" + std::to_string(index++) + "]", depth + 1));
      }
    }
    if (node.IsMap()) {
      return check_map(node, path, depth);
    }
    return {};
  }

private:
  Status check_map(const YAML::Node& node, const std::string& path, int depth) {
    std::map<std::string, int> first_line;
    for (const auto& entry : node) {
      const YAML::Node& key = entry.first;
      if (!key.IsScalar() || kind_of(key) == Kind::null) {
        return m_source.error_at(location_of(key), "a key must be a string, got " +
                                                       std::string(kind_name(kind_of(key))));
      }
      const auto [it, inserted] = first_line.emplace(key.Scalar(), key.Mark().line + 1);
      if (!inserted) {
        return m_source.error_at(location_of(key), "duplicate key '" + key.Scalar() + "'" +
                                                       in_map(path) + "; first defined at line " +
                                                       std::to_string(it->second));
      }
      const std::string child = path.empty() ? key.Scalar() : path + "." + key.Scalar();
      ENVLOCK_TRY(check(entry.second, child, depth + 1));
    }
    return {};
  }

  const SourceText& m_source;
  std::size_t m_nodes = 0;
};

} // namespace

Location location_of(const YAML::Node& node) {
  if (!node.IsDefined()) {
    return {};
  }
  return location_of_mark(node.Mark());
}

Result<YAML::Node> load_yaml(const SourceText& source) {
  const std::string_view text = source.text();
  if (text.size() > k_max_manifest_bytes) {
    return source.error_at({}, "the manifest is " + std::to_string(text.size()) +
                                   " bytes; the limit is 1 MiB (" +
                                   std::to_string(k_max_manifest_bytes) + " bytes)");
  }
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(std::string(text));
  } catch (const YAML::DeepRecursion& e) {
    return source.error_at(location_of_mark(e.mark),
                           "nesting deeper than " + std::to_string(k_max_depth) + " levels");
  } catch (const YAML::Exception& e) {
    return source.error_at(location_of_mark(e.mark), "invalid YAML: " + e.msg);
  }
  if (documents.empty() || (documents.size() == 1 && documents[0].IsNull())) {
    return source.error_at({}, "the manifest is empty; it must be a mapping that starts with "
                               "'envlock: 1'");
  }
  if (documents.size() > 1) {
    return source.error_at(location_of(documents[1]),
                           "more than one YAML document; a manifest is one mapping");
  }
  const YAML::Node& root = documents[0];
  if (!root.IsMap()) {
    return source.error_at(location_of(root), "the manifest must be a mapping, got " +
                                                  std::string(kind_name(kind_of(root))));
  }
  StructureCheck structure(source);
  ENVLOCK_TRY(structure.check(root, "", 1));
  return root;
}

} // namespace envlock::manifest
