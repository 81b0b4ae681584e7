// expect.links: the minimum copy bandwidths `envlock-verify --check links` judges, by GPU model
// (docs/manual/verify.md, "Links"; docs/formats/lock.md).
#pragma once

#include "lock/declared_number.hpp"
#include "util/result.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::lock {

// One GPU model's minimums in GB/s (1e9 bytes a second), each > 0; an absent key is not judged.
struct LinkMinimums {
  std::optional<DeclaredNumber> peer_gbps;           // a copy from one GPU to another
  std::optional<DeclaredNumber> host_to_device_gbps; // from page-locked host memory
  std::optional<DeclaredNumber> device_to_host_gbps; // to page-locked host memory
  bool operator==(const LinkMinimums&) const = default;
};

// GPU model as the driver names it ("NVIDIA H200") -> its minimums.
using LinksExpect = std::map<std::string, LinkMinimums>;

// The keys a model's entry accepts, in documentation order.
const std::vector<std::string>& link_keys();

// Reads an expect.links object. An input error names the entry: "expect.links: expected a
// mapping of GPU model to minimums", "expect.links.NVIDIA H200: unknown key 'peer_gbs'; did you
// mean 'peer_gbps'?", "expect.links.NVIDIA H200.peer_gbps: expected a number > 0 (GB/s)".
Result<LinksExpect> read_links_expect(const nlohmann::json& value);

// expect.links as the lock writes it: each model's declared keys, numbers as declared.
nlohmann::json links_expect_to_json(const LinksExpect& links);

} // namespace envlock::lock
