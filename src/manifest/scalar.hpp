// What a YAML node holds, in the words of the YAML 1.2 core schema: a plain scalar such as 8,
// 1.5, true or ~ has a type; a quoted scalar is always a string. yaml-cpp keeps every scalar as
// text, so this is where the manifest decides what "8" and "'8'" mean.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <yaml-cpp/yaml.h>

namespace envlock::manifest {

enum class Kind { null, boolean, integer, number, string, list, mapping };

// The kind of a node: plain scalars are resolved by the core schema, quoted ones are strings.
Kind kind_of(const YAML::Node& node);

// "null", "a boolean", "an integer", "a number", "a string", "a list" or "a mapping".
std::string_view kind_name(Kind kind);

// The value of a decimal integer such as -12 or +7; nothing when the text is not one or does not
// fit in 64 bits.
std::optional<std::int64_t> parse_integer(std::string_view text);

// The value of a core-schema float (1.5, -2e3, .5, .inf, .nan); nothing when the text is not one.
std::optional<double> parse_number(std::string_view text);

// True for the tags a manifest may carry: none, the non-specific ones, and the core schema's.
bool is_supported_tag(const std::string& tag);

} // namespace envlock::manifest
