// The YAML boundary: text in, one checked yaml-cpp document out. No yaml-cpp exception passes
// this point; syntax errors, limits and structural faults come back as "FILE:LINE:COL" errors.
#pragma once

#include "manifest/source_text.hpp"
#include "util/result.hpp"

#include <cstddef>
#include <string_view>
#include <yaml-cpp/yaml.h>

namespace envlock::manifest {

inline constexpr std::size_t k_max_manifest_bytes = std::size_t{1024} * 1024;
inline constexpr int k_max_depth = 32;
// Aliases are counted each time they are used, so an alias bomb stops here.
inline constexpr std::size_t k_max_nodes = 100000;

// The 0-based position of a node, or no position when yaml-cpp has none.
Location location_of(const YAML::Node& node);

// Parses the text of a manifest (or another YAML file read like one, called `name` in messages)
// into its one document, a mapping. Fails (exit 2) on a YAML syntax
// error, an empty text, more than one document, a document that is not a mapping, a text over
// k_max_manifest_bytes, nesting deeper than k_max_depth, more than k_max_nodes nodes, a duplicate
// or non-scalar key, or a tag outside the core schema.
Result<YAML::Node> load_yaml(const SourceText& source, std::string_view name = "manifest");

} // namespace envlock::manifest
