#include "lock/health_expect.hpp"

#include "util/strings.hpp"

#include <algorithm>

namespace envlock::lock {

using nlohmann::json;

namespace {

std::string health_path(const std::string& key) {
  return "expect.host.health." + key;
}

Result<std::int64_t> read_health_integer(const json& value, const std::string& key,
                                         std::int64_t least) {
  if (!value.is_number_integer() || value.get<std::int64_t>() < least) {
    return input_error(health_path(key) + ": expected an integer >= " + std::to_string(least));
  }
  return value.get<std::int64_t>();
}

Result<bool> read_health_flag(const json& value, const std::string& key) {
  if (!value.is_boolean()) {
    return input_error(health_path(key) + ": expected true or false");
  }
  return value.get<bool>();
}

Result<std::string> read_health_word(const json& value, const std::string& key,
                                     const std::vector<std::string>& words) {
  if (!value.is_string() ||
      std::find(words.begin(), words.end(), value.get<std::string>()) == words.end()) {
    return input_error(health_path(key) + ": " +
                       (value.is_string() ? "'" + value.get<std::string>() + "'" : value.dump()) +
                       " is not one of " + util::join(words, ", "));
  }
  return value.get<std::string>();
}

Result<std::vector<std::int64_t>> read_health_xids(const json& value) {
  if (!value.is_array()) {
    return input_error(health_path("tolerated_xids") + ": expected a list of XID numbers");
  }
  std::vector<std::int64_t> out;
  for (const auto& item : value) {
    if (!item.is_number_integer() || item.get<std::int64_t>() < 1) {
      return input_error(health_path("tolerated_xids") + ": " + item.dump() +
                         " is not an XID number (an integer >= 1)");
    }
    out.push_back(item.get<std::int64_t>());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Status read_health_key(HealthExpect& out, const std::string& key, const json& item) {
  if (key == "pcie_gen") {
    ENVLOCK_TRY_ASSIGN(out.pcie_gen, read_health_integer(item, key, 1));
  } else if (key == "pcie_width") {
    ENVLOCK_TRY_ASSIGN(out.pcie_width, read_health_integer(item, key, 1));
  } else if (key == "nvlink_links") {
    ENVLOCK_TRY_ASSIGN(out.nvlink_links, read_health_integer(item, key, 0));
  } else if (key == "ib_ports") {
    ENVLOCK_TRY_ASSIGN(out.ib_ports, read_health_integer(item, key, 0));
  } else if (key == "ib_rate_gbps") {
    ENVLOCK_TRY_ASSIGN(out.ib_rate_gbps, read_health_integer(item, key, 1));
  } else if (key == "ib_link_layer") {
    ENVLOCK_TRY_ASSIGN(out.ib_link_layer, read_health_word(item, key, {"InfiniBand", "Ethernet"}));
  } else if (key == "max_temperature_c") {
    ENVLOCK_TRY_ASSIGN(out.max_temperature_c, read_health_integer(item, key, 1));
  } else if (key == "mig") {
    ENVLOCK_TRY_ASSIGN(const std::string word,
                       read_health_word(item, key, {"disabled", "enabled", "any"}));
    out.mig = word == "disabled"  ? MigExpect::disabled
              : word == "enabled" ? MigExpect::enabled
                                  : MigExpect::any;
  } else if (key == "tolerated_xids") {
    ENVLOCK_TRY_ASSIGN(out.tolerated_xids, read_health_xids(item));
  } else if (key == "fabric_manager") {
    ENVLOCK_TRY_ASSIGN(out.fabric_manager, read_health_flag(item, key));
  } else if (key == "nvlsm") {
    ENVLOCK_TRY_ASSIGN(out.nvlsm, read_health_flag(item, key));
  } else {
    ENVLOCK_TRY_ASSIGN(out.gpudirect_rdma, read_health_flag(item, key));
  }
  return {};
}

} // namespace

const char* to_string(MigExpect mig) {
  switch (mig) {
  case MigExpect::disabled:
    return "disabled";
  case MigExpect::enabled:
    return "enabled";
  case MigExpect::any:
    return "any";
  }
  return "disabled";
}

const std::vector<std::string>& health_keys() {
  static const std::vector<std::string> keys = {
      "pcie_gen",      "pcie_width",        "nvlink_links", "ib_ports",       "ib_rate_gbps",
      "ib_link_layer", "max_temperature_c", "mig",          "tolerated_xids", "fabric_manager",
      "nvlsm",         "gpudirect_rdma"};
  return keys;
}

Result<HealthExpect> read_health_expect(const json& value) {
  HealthExpect out;
  if (value.is_null()) {
    return out;
  }
  if (!value.is_object()) {
    return input_error("expect.host.health: expected a mapping");
  }
  const auto& keys = health_keys();
  for (const auto& [key, item] : value.items()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string message = "expect.host.health: unknown key '" + key + "'";
      if (auto close = util::closest_match(key, keys)) {
        message += "; did you mean '" + *close + "'?";
      }
      return input_error(message);
    }
    ENVLOCK_TRY(read_health_key(out, key, item));
  }
  return out;
}

json health_expect_to_json(const HealthExpect& h) {
  json out = json::object();
  const std::pair<const char*, const std::optional<std::int64_t>*> integers[] = {
      {"pcie_gen", &h.pcie_gen},         {"pcie_width", &h.pcie_width},
      {"nvlink_links", &h.nvlink_links}, {"ib_ports", &h.ib_ports},
      {"ib_rate_gbps", &h.ib_rate_gbps}, {"max_temperature_c", &h.max_temperature_c}};
  for (const auto& [key, number] : integers) {
    if (*number) {
      out[key] = **number;
    }
  }
  const std::pair<const char*, const std::optional<bool>*> flags[] = {
      {"fabric_manager", &h.fabric_manager},
      {"nvlsm", &h.nvlsm},
      {"gpudirect_rdma", &h.gpudirect_rdma}};
  for (const auto& [key, flag] : flags) {
    if (*flag) {
      out[key] = **flag;
    }
  }
  if (h.ib_link_layer) {
    out["ib_link_layer"] = *h.ib_link_layer;
  }
  if (h.mig) {
    out["mig"] = to_string(*h.mig);
  }
  if (h.tolerated_xids) {
    out["tolerated_xids"] = *h.tolerated_xids;
  }
  return out;
}

} // namespace envlock::lock
