// The referrers tag schema (OCI distribution spec 1.1, "Unavailable Referrers API"): where a
// registry has no referrers API, the list of a manifest's referrers is an image index pushed to
// the tag made from its digest ("sha256:HEX" -> "sha256-HEX"), kept up to date by the clients
// that push referrers. These are the pure parts: the tag's name, reading the index it holds and
// adding a descriptor to it.
#pragma once

#include "util/result.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace envlock::attest {

// The Truncated Algorithm (32 characters), '-', the Truncated Encoded part (64 characters), every
// character a tag may not hold replaced by '-'.
std::string referrers_tag(std::string_view digest);

// The index the tag holds: an input error naming `origin` when it is no image index (the spec's
// client then reports a failure and changes nothing).
Result<nlohmann::json> read_tag_index(std::string_view body, std::string_view media_type,
                                      const std::string& origin);

// An empty image index.
nlohmann::json empty_index();

// Whether `index` lists a descriptor with `digest`.
bool index_lists(const nlohmann::json& index, std::string_view digest);

// `index` with `descriptor` appended (unless one with its digest is there).
nlohmann::json with_descriptor(nlohmann::json index, const nlohmann::json& descriptor);

// The bytes pushed to the tag (canonical JSON).
std::string index_bytes(const nlohmann::json& index);

} // namespace envlock::attest
