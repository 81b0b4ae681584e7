#include "lock/links_expect.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace envlock::lock {

namespace {

using json = nlohmann::json;

// The keys of link_keys() with their slots in `minimums` (const or not).
template <typename Minimums> auto link_slots(Minimums& minimums) {
  return std::array{std::pair{"peer_gbps", &minimums.peer_gbps},
                    std::pair{"host_to_device_gbps", &minimums.host_to_device_gbps},
                    std::pair{"device_to_host_gbps", &minimums.device_to_host_gbps}};
}

Result<LinkMinimums> read_link_minimums(const json& value, const std::string& path) {
  if (!value.is_object()) {
    return input_error(path + ": expected a mapping of " + util::join(link_keys(), ", "));
  }
  LinkMinimums minimums;
  for (const auto& [key, item] : value.items()) {
    const auto& keys = link_keys();
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string message = path + ": unknown key '" + key + "'";
      if (auto close = util::closest_match(key, keys)) {
        message += "; did you mean '" + *close + "'?";
      }
      return input_error(message);
    }
    if (!item.is_number() || !(item.get<double>() > 0)) {
      return input_error(path + "." + key + ": expected a number > 0 (GB/s)");
    }
    for (const auto& [name, slot] : link_slots(minimums)) {
      if (key == name) {
        *slot = DeclaredNumber{item.get<double>(), item.is_number_integer()};
      }
    }
  }
  return minimums;
}

} // namespace

const std::vector<std::string>& link_keys() {
  static const std::vector<std::string> keys = {"peer_gbps", "host_to_device_gbps",
                                                "device_to_host_gbps"};
  return keys;
}

Result<LinksExpect> read_links_expect(const json& value) {
  LinksExpect links;
  if (value.is_null()) {
    return links;
  }
  if (!value.is_object()) {
    return input_error("expect.links: expected a mapping of GPU model to minimums");
  }
  for (const auto& [model, item] : value.items()) {
    ENVLOCK_TRY_ASSIGN(links[model], read_link_minimums(item, "expect.links." + model));
  }
  return links;
}

json links_expect_to_json(const LinksExpect& links) {
  json out = json::object();
  for (const auto& [model, minimums] : links) {
    json entry = json::object();
    for (const auto& [key, slot] : link_slots(minimums)) {
      if (*slot) {
        entry[key] = declared_number_json(**slot);
      }
    }
    out[model] = std::move(entry);
  }
  return out;
}

} // namespace envlock::lock
