// One health value as the node facts carry it (docs/formats/node-facts.md): {"value": V,
// "source": WHERE}; {"value": null, "source": WHERE, "missing": WHY} when it cannot be read; and
// with "not_supported": true as well when the source answers that the GPU has no such thing
// (NVML's "Not Supported"), which is an answer, not a failure to read.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace envlock::node::health {

nlohmann::json value_fact(nlohmann::json value, const std::string& source);
nlohmann::json missing_value(const std::string& source, const std::string& why);
nlohmann::json unsupported_value(const std::string& source, const std::string& why);

// The value of `facts[key]`, or nothing when absent, null or not a fact.
std::optional<nlohmann::json> value_of(const nlohmann::json& facts, const std::string& key);
// Whether `facts[key]` says the GPU has no such thing.
bool unsupported(const nlohmann::json& facts, const std::string& key);
// Why `facts[key]` has no value: its "missing", or "KEY: not read" when there is no such fact.
std::string why_missing(const nlohmann::json& facts, const std::string& key);

} // namespace envlock::node::health
