#include "manifest/yaml_load.hpp"

#include "manifest/scalar.hpp"

#include <map>
#include <sstream>
#include <string>
#include <vector>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>

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

namespace {

// Records where each document's first node starts, for at most two documents. yaml-cpp's
// LoadAll loops forever, allocating a null document each time, when a token it cannot place
// (a ',' outside a flow collection) stands at the start of a document; parsing document by
// document with a bound, and comparing where they start, turns that into an error.
class DocumentStarts : public YAML::EventHandler {
public:
  std::vector<YAML::Mark> starts;

  void OnDocumentStart(const YAML::Mark& /*mark*/) override { m_new = true; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t /*anchor*/) override { node(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t /*anchor*/) override { node(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                const std::string& /*value*/) override {
    node(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& /*tag*/,
                       YAML::anchor_t /*anchor*/, YAML::EmitterStyle::value /*style*/) override {
    node(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                  YAML::EmitterStyle::value /*style*/) override {
    node(mark);
  }
  void OnMapEnd() override {}

private:
  void node(const YAML::Mark& mark) {
    if (m_new) {
      starts.push_back(mark);
      m_new = false;
    }
  }
  bool m_new = false;
};

} // namespace

Result<YAML::Node> load_yaml(const SourceText& source, std::string_view name) {
  const std::string what(name);
  const std::string_view text = source.text();
  if (text.size() > k_max_manifest_bytes) {
    return source.error_at({}, "the " + what + " is " + std::to_string(text.size()) +
                                   " bytes; the limit is 1 MiB (" +
                                   std::to_string(k_max_manifest_bytes) + " bytes)");
  }
  YAML::Node root;
  try {
    std::istringstream in{std::string(text)};
    YAML::Parser parser(in);
    DocumentStarts starts;
    for (int i = 0; i < 2 && parser.HandleNextDocument(starts); ++i) {
    }
    if (starts.starts.size() == 2 && starts.starts[0].pos == starts.starts[1].pos) {
      return source.error_at(location_of_mark(starts.starts[1]),
                             "invalid YAML: unexpected character at the start of a node");
    }
    if (starts.starts.size() == 2) {
      return source.error_at(location_of_mark(starts.starts[1]),
                             "more than one YAML document; a " + what + " is one mapping");
    }
    root = YAML::Load(std::string(text));
  } catch (const YAML::DeepRecursion& e) {
    return source.error_at(location_of_mark(e.mark),
                           "nesting deeper than " + std::to_string(k_max_depth) + " levels");
  } catch (const YAML::Exception& e) {
    return source.error_at(location_of_mark(e.mark), "invalid YAML: " + e.msg);
  }
  if (root.IsNull()) {
    return source.error_at({}, "the " + what + " is empty; it must be a mapping" +
                                   (name == "manifest" ? " that starts with 'envlock: 1'" : ""));
  }
  if (!root.IsMap()) {
    return source.error_at(location_of(root), "the " + what + " must be a mapping, got " +
                                                  std::string(kind_name(kind_of(root))));
  }
  StructureCheck structure(source);
  ENVLOCK_TRY(structure.check(root, "", 1));
  return root;
}

} // namespace envlock::manifest
