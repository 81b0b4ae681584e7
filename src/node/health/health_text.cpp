#include "node/health/health_text.hpp"

#include "util/strings.hpp"

#include <iomanip>
#include <sstream>

namespace envlock::node::health {

using nlohmann::json;

namespace {

std::string value_text(const json& value) {
  if (value.is_string()) {
    return value.get<std::string>();
  }
  if (value.is_array() && value.empty()) {
    return "none";
  }
  if (value.is_array() && std::all_of(value.begin(), value.end(), [](const json& item) {
        return item.is_object() && item.contains("link") && item.contains("state");
      })) {
    std::vector<std::string> links;
    for (const auto& link : value) {
      links.push_back(link["link"].dump() + ":" + link["state"].get<std::string>());
    }
    return util::join(links, " ");
  }
  return value.dump();
}

void fact_lines(std::ostringstream& out, const json& facts) {
  for (const auto& [key, fact] : facts.items()) {
    if (!fact.is_object() || !fact.contains("source")) {
      continue;
    }
    out << "  " << std::left << std::setw(28) << key << " ";
    const json value = fact.value("value", json());
    if (fact.contains("skipped")) {
      out << "skipped: " << fact.value("skipped", std::string()) << "\n";
    } else if (value.is_null()) {
      out << (fact.value("not_supported", false) ? "not supported: " : "missing: ")
          << fact.value("missing", std::string()) << "\n";
    } else {
      out << value_text(value) << "  (" << fact.value("source", std::string()) << ")\n";
    }
  }
}

} // namespace

std::string health_facts_text(const json& health) {
  std::ostringstream out;
  for (const auto& gpu : health.value("gpus", json::array())) {
    out << "Health of GPU " << gpu.value("index", json(0)).dump() << "\n";
    if (gpu.contains("missing")) {
      out << "  missing: " << gpu.value("missing", std::string()) << "\n";
      continue;
    }
    if (gpu.value("lost", false)) {
      out << "  lost: NVML answers GPU_IS_LOST\n";
    }
    fact_lines(out, gpu);
  }
  out << "Health of the host\n";
  if (health.contains("nvml") && health["nvml"].is_object()) {
    fact_lines(out, json{{"nvml", health["nvml"]}});
  }
  fact_lines(out, health.value("host", json::object()));
  return out.str();
}

} // namespace envlock::node::health
