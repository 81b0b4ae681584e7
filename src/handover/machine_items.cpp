// Handover rows 1 and 2: the machine (hardware to driver) and what runs on it (services, container
// tools, packages, configuration).
#include "handover/items.hpp"
#include "util/strings.hpp"

namespace envlock::handover::detail {

namespace {

// The node's health as `envlock node --check` judged it (its checks "health.*"): "pass
// (N checks, M warnings)" or "fail: DRAIN LINE (+N more)" (docs/manual/health.md); missing when
// the node record holds no health check.
HandoverItem node_health(const Records& records) {
  const std::string label = "Node health";
  if (!records.node) {
    return missing(label);
  }
  const auto& checks = records.node->value.checks;
  std::vector<std::string> failures;
  std::size_t judged = 0;
  std::size_t warnings = 0;
  for (const formats::CheckResult& check : checks ? *checks : std::vector<formats::CheckResult>()) {
    if (!check.id.starts_with("health.")) {
      continue;
    }
    ++judged;
    if (check.outcome == formats::Outcome::fail) {
      const auto drain = check.details.find("drain");
      failures.push_back(drain != check.details.end() && drain->is_string()
                             ? drain->get<std::string>()
                             : check.id + " failed");
    } else if (check.outcome == formats::Outcome::pass && check.reason.starts_with("warning: ")) {
      ++warnings;
    }
  }
  if (judged == 0) {
    return missing(label);
  }
  std::string value;
  if (!failures.empty()) {
    value = "fail: " + failures.front() +
            (failures.size() > 1 ? " (+" + std::to_string(failures.size() - 1) + " more)" : "");
  } else {
    value =
        "pass (" + std::to_string(judged) + " checks" +
        (warnings > 0 ? ", " + std::to_string(warnings) + (warnings == 1 ? " warning" : " warnings")
                      : std::string()) +
        ")";
  }
  return {label, value, records.node->record.name + ": checks[health.*]"};
}

// "287", or "287 (283 installed by uv sync; not selected: pytest, ...)" when the lock's
// sync_args and platform leave some out (lock::UvPackage::not_selected).
std::string packages_locked(const std::vector<lock::UvPackage>& packages) {
  std::vector<std::string> left_out;
  for (const auto& p : packages) {
    if (p.not_selected) {
      left_out.push_back(p.name);
    }
  }
  std::string out = std::to_string(packages.size());
  if (left_out.empty()) {
    return out;
  }
  constexpr std::size_t k_shown = 8;
  const std::size_t more = left_out.size() > k_shown ? left_out.size() - k_shown : 0;
  left_out.resize(left_out.size() - more);
  return out + " (" + std::to_string(packages.size() - left_out.size() - more) +
         " installed by uv sync; not selected: " + util::join(left_out, ", ") +
         (more > 0 ? ", +" + std::to_string(more) + " more" : "") + ")";
}

} // namespace

HandoverRow hardware_row(const Records& r) {
  HandoverRow row{"hardware",
                  "Hardware, firmware, operating-system, kernel and driver versions",
                  "Identify the machine and its underlying software conditions",
                  {}};
  row.items = {fact(r, "System vendor", "hardware.vendor"),
               fact(r, "System product", "hardware.product"),
               fact(r, "System serial number", "hardware.serial"),
               fact(r, "BIOS version", "bios.version"),
               fact(r, "GPU model", "gpu.model"),
               fact(r, "GPU count", "gpu.count"),
               fact(r, "GPU VBIOS", "gpu.vbios"),
               fact(r, "Operating system", "os"),
               fact(r, "Kernel", "kernel"),
               fact(r, "NVIDIA driver", "driver"),
               node_health(r)};
  return row;
}

HandoverRow services_row(const Records& r) {
  HandoverRow row{"services",
                  "Management services, container tools, packages and configuration",
                  "Reinstall the same system and production runtime",
                  {}};
  row.items = {
      fact(r, "Fabric Manager", "fabric_manager"),
      fact(r, "NVLink Subnet Manager", "nvlsm"),
      fact(r, "NVIDIA Container Toolkit", "container_toolkit"),
      fact(r, "Docker", "docker"),
      fact(r, "Enroot", "enroot"),
      fact(r, "Pyxis", "pyxis"),
      fact(r, "Pyxis in plugstack.conf", "pyxis.plugstack"),
      fact(r, "Slurm", "slurm"),
      from_lock(r.lock, "uv", "python.uv.version",
                [](const lock::Lock& l) { return l.python.uv_version; }),
      from_lock(r.lock, "uv.lock", "python.uv_lock.path",
                [](const lock::Lock& l) { return l.python.uv_lock.path; }),
      from_lock(r.lock, "Python packages locked", "python.uv_lock.packages",
                [](const lock::Lock& l) { return packages_locked(l.python.uv_lock.packages); }),
      from_lock(r.lock, "Build arguments", "build_args",
                [](const lock::Lock& l) {
                  std::vector<std::string> parts;
                  for (const auto& [name, value] : l.build_args) {
                    parts.push_back(name + "=" + value);
                  }
                  return util::join(parts, " ");
                }),
      from_lock(r.lock, "Enroot squash options", "enroot.squash_options",
                [](const lock::Lock& l) { return l.enroot.squash_options; }),
      from_lock(r.lock, "SOURCE_DATE_EPOCH", "enroot.source_date_epoch",
                [](const lock::Lock& l) { return std::to_string(l.enroot.source_date_epoch); })};
  return row;
}

} // namespace envlock::handover::detail
