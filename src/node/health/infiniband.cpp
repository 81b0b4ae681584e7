#include "node/health/infiniband.hpp"

#include "node/fact.hpp"
#include "node/health/value.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <system_error>
#include <vector>

namespace envlock::node::health {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::vector<std::string> ib_folder_names(const fs::path& folder, std::error_code& ec) {
  std::vector<std::string> names;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// "4: ACTIVE" -> "ACTIVE"; "5: LinkUp" -> "LinkUp".
std::string ib_state_word(std::string_view text) {
  const auto colon = text.find(':');
  return std::string(util::trim(colon == std::string_view::npos ? text : text.substr(colon + 1)));
}

json read_one_port(const fs::path& root, const std::string& device, const std::string& port) {
  const std::string base = "/sys/class/infiniband/" + device + "/ports/" + port;
  json out = {{"port", device + "/" + port}};
  std::vector<std::string> missing;
  for (const char* file : {"state", "phys_state", "rate", "link_layer"}) {
    std::string why;
    const auto text = read_host_file(root, base + "/" + file, why);
    if (!text) {
      out[file] = nullptr;
      missing.push_back(why);
      continue;
    }
    const std::string line(util::trim(text->substr(0, text->find('\n'))));
    const std::string clean = util::escape_invalid_utf8(line);
    out[file] = std::string(file) == "state" || std::string(file) == "phys_state"
                    ? ib_state_word(clean)
                    : clean;
  }
  const auto rate =
      out["rate"].is_string() ? ib_rate_gbps(out["rate"].get<std::string>()) : std::nullopt;
  out["rate_gbps"] = rate ? json(*rate) : json(nullptr);
  if (!missing.empty()) {
    out["missing"] = util::join(missing, "; ");
  }
  return out;
}

} // namespace

std::optional<double> ib_rate_gbps(std::string_view rate) {
  // As the kernel writes it: decimal digits, an optional fraction, then " Gb/sec" ("100 Gb/sec
  // (4X EDR)", "2.5 Gb/sec (1X SDR)"). Anything else (nan, inf, a sign, an exponent, hex) is
  // not a rate.
  const std::string_view text = util::trim(rate);
  std::size_t at = 0;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
    ++at;
  }
  if (at == 0 || at > 9) {
    return std::nullopt;
  }
  if (at < text.size() && text[at] == '.') {
    const std::size_t fraction = ++at;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
      ++at;
    }
    if (at == fraction || at - fraction > 6) {
      return std::nullopt;
    }
  }
  if (text.substr(at, 7) != " Gb/sec") {
    return std::nullopt;
  }
  const double value = std::strtod(std::string(text.substr(0, at)).c_str(), nullptr);
  if (!std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

json read_ib_ports(const fs::path& root) {
  const std::string source = "/sys/class/infiniband";
  const fs::path folder = root / "sys/class/infiniband";
  std::error_code ec;
  if (!fs::exists(folder, ec)) {
    return value_fact(json::array(), source);
  }
  const auto devices = ib_folder_names(folder, ec);
  if (ec) {
    return missing_value(source, source + ": " + ec.message());
  }
  json ports = json::array();
  for (const auto& device : devices) {
    const auto names = ib_folder_names(folder / device / "ports", ec);
    if (ec) {
      return missing_value(source, source + "/" + device + "/ports: " + ec.message());
    }
    std::vector<std::string> sorted = names;
    std::sort(sorted.begin(), sorted.end(), [](const std::string& a, const std::string& b) {
      return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    for (const auto& port : sorted) {
      ports.push_back(read_one_port(root, device, port));
    }
  }
  return value_fact(std::move(ports), source);
}

json read_peermem(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root / "sys/module", ec)) {
    return missing_value("/sys/module/nvidia_peermem", "/sys/module: not found");
  }
  const bool loaded = fs::is_directory(root / "sys/module/nvidia_peermem", ec);
  return value_fact(loaded ? "loaded" : "not loaded", "/sys/module/nvidia_peermem");
}

} // namespace envlock::node::health
