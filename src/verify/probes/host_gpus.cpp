#include "formats/node_facts.hpp"
#include "util/strings.hpp"
#include "verify/probes/probes.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

namespace envlock::verify {

namespace {

constexpr const char* k_id = "gpu.visible";
constexpr const char* k_title = "GPUs match the host's";

struct HostGpu {
  std::int64_t index = 0;
  std::string uuid;
};

// The gpus[] of an `envlock node` facts file (formats/node_facts.hpp); each must name its UUID.
Result<std::vector<HostGpu>> read_host_gpus(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const formats::NodeFacts facts, formats::read_node_facts(path));
  std::vector<HostGpu> out;
  for (std::size_t i = 0; i < facts.gpus.size(); ++i) {
    const formats::NodeGpu& gpu = facts.gpus[i];
    if (!gpu.uuid) {
      return input_error(path.string() + ": gpus[" + std::to_string(i) + "].uuid: missing");
    }
    out.push_back({gpu.index, *gpu.uuid});
  }
  return out;
}

bool is_index(const std::string& token) {
  return !token.empty() && std::all_of(token.begin(), token.end(), [](char c) {
    return std::isdigit(static_cast<unsigned char>(c)) != 0;
  });
}

// The UUIDs the container should see: the host's list, narrowed by NVIDIA_VISIBLE_DEVICES; or
// NVIDIA_VISIBLE_DEVICES's own UUIDs. Nothing when neither says.
Result<std::optional<std::vector<std::string>>> expected_uuids(const RunContext& context) {
  std::vector<std::string> visible;
  if (auto env = context.env("NVIDIA_VISIBLE_DEVICES")) {
    const std::string value(util::trim(*env));
    if (!value.empty() && value != "all" && value != "void" && value != "none") {
      for (const auto& token : util::split(value, ',')) {
        visible.emplace_back(util::trim(token));
      }
    }
  }
  std::vector<std::string> out;
  if (!context.options().host_facts.empty()) {
    ENVLOCK_TRY_ASSIGN(auto host, read_host_gpus(context.options().host_facts));
    for (const auto& gpu : host) {
      const bool listed =
          visible.empty() || std::find(visible.begin(), visible.end(), gpu.uuid) != visible.end() ||
          std::find(visible.begin(), visible.end(), std::to_string(gpu.index)) != visible.end();
      if (listed) {
        out.push_back(gpu.uuid);
      }
    }
  } else if (!visible.empty() && std::none_of(visible.begin(), visible.end(), is_index)) {
    out = visible;
  } else {
    return std::optional<std::vector<std::string>>();
  }
  std::sort(out.begin(), out.end());
  return std::optional<std::vector<std::string>>(out);
}

} // namespace

CheckResult compare_host_gpus(const RunContext& context,
                              const std::vector<CheckResult>& gpu_checks) {
  if (context.mode() == Mode::offline) {
    return skipped(k_id, k_title, "", "offline mode (--root): no GPUs to compare");
  }
  if (context.options().no_gpu) {
    return skipped(k_id, k_title, "", "GPU checks skipped (--no-gpu)");
  }
  auto expected = expected_uuids(context);
  if (!expected) {
    return failed(k_id, k_title, "", "", expected.error().message);
  }
  if (!expected->has_value()) {
    return skipped(k_id, k_title, "",
                   "no host GPU list given (--host-facts FILE or NVIDIA_VISIBLE_DEVICES)");
  }
  const std::string expected_text = util::join(**expected, ",");
  const auto count = std::find_if(gpu_checks.begin(), gpu_checks.end(),
                                  [](const CheckResult& c) { return c.id == "gpu.count"; });
  if (count == gpu_checks.end() || !count->details.contains("uuids") ||
      !count->details["uuids"].is_array()) {
    const std::string why = count == gpu_checks.end() ? "no gpu.count result" : count->reason;
    return failed(k_id, k_title, expected_text, "",
                  "the GPUs seen here are unknown" + (why.empty() ? "" : ": " + why));
  }
  std::vector<std::string> found;
  for (const auto& uuid : count->details["uuids"]) {
    if (uuid.is_string()) {
      found.push_back(uuid.get<std::string>());
    }
  }
  std::sort(found.begin(), found.end());
  const std::string found_text = util::join(found, ",");
  CheckResult check = found == **expected
                          ? passed(k_id, k_title, expected_text, found_text)
                          : failed(k_id, k_title, expected_text, found_text,
                                   "the GPUs seen here differ from the host's list");
  check.details["source"] =
      context.options().host_facts.empty() ? "NVIDIA_VISIBLE_DEVICES" : "--host-facts";
  return check;
}

} // namespace envlock::verify
