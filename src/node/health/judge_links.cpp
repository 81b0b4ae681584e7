// Rules of the GPU's links: PCIe width and generation, NVLink links, the NVLink fabric, and the
// services the fabric needs (Fabric Manager, NVLSM).
#include "node/health/rule_check.hpp"
#include "node/health/value.hpp"
#include "util/strings.hpp"

#include <algorithm>

namespace envlock::node::health {

using nlohmann::json;

namespace {

// The first of `keys` with a value (NVML's, else sysfs's).
std::optional<std::pair<long, std::string>> first_number(const json& gpu,
                                                         std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    if (const auto v = value_of(gpu, key); v && v->is_number()) {
      return std::pair{v->get<long>(), fact_source(gpu, key)};
    }
  }
  return std::nullopt;
}

// The least of the maxima known.
std::optional<long> least_max(const json& gpu, std::initializer_list<const char*> keys) {
  std::optional<long> out;
  for (const char* key : keys) {
    if (const auto v = value_of(gpu, key); v && v->is_number()) {
      out = out ? std::min(*out, v->get<long>()) : v->get<long>();
    }
  }
  return out;
}

void judge_pcie(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck width("health.pcie.width");
  RuleCheck gen("health.pcie.gen");
  const auto& expect = c.options.expect;
  width.expect(expect.pcie_width ? "x" + std::to_string(*expect.pcie_width) +
                                       " or wider (expect.host.health.pcie_width)"
                                 : "the least maximum width of the GPU and its slot");
  gen.expect(expect.pcie_gen ? "gen " + std::to_string(*expect.pcie_gen) +
                                   " or later (expect.host.health.pcie_gen)"
                             : "the least maximum generation of the GPU and its slot");
  for_each_gpu(c, width, [&](const json& gpu, const std::string& subject) {
    const auto current = first_number(gpu, {"pcie.width.current", "pcie.sysfs.width.current"});
    const auto most = expect.pcie_width ? std::optional<long>(*expect.pcie_width)
                                        : least_max(gpu, {"pcie.width.max", "pcie.slot.width.max"});
    if (!current) {
      width.unreadable(subject, why_missing(gpu, "pcie.width.current"),
                       fact_source(gpu, "pcie.width.current"));
      return;
    }
    if (!most) {
      width.unreadable(subject, why_missing(gpu, "pcie.width.max"),
                       fact_source(gpu, "pcie.width.max"));
      return;
    }
    const std::string text = "x" + std::to_string(current->first) + " of x" + std::to_string(*most);
    if (current->first < *most) {
      width.fail(subject, text, action::k_reseat_gpu, current->second);
    } else {
      width.note(subject, text);
    }
  });
  for_each_gpu(c, gen, [&](const json& gpu, const std::string& subject) {
    const auto current = first_number(gpu, {"pcie.gen.current", "pcie.sysfs.gen.current"});
    const auto most =
        expect.pcie_gen ? std::optional<long>(*expect.pcie_gen)
                        : least_max(gpu, {"pcie.gen.max", "pcie.gen.gpu_max", "pcie.slot.gen.max"});
    if (!current) {
      gen.unreadable(subject, why_missing(gpu, "pcie.gen.current"),
                     fact_source(gpu, "pcie.gen.current"));
      return;
    }
    if (!most) {
      gen.unreadable(subject, why_missing(gpu, "pcie.gen.max"), fact_source(gpu, "pcie.gen.max"));
      return;
    }
    const std::string text =
        "gen " + std::to_string(current->first) + " of " + std::to_string(*most);
    if (current->first >= *most) {
      gen.note(subject, text);
    } else if (expect.pcie_gen) {
      gen.fail(subject, text, action::k_reseat_gpu, current->second);
    } else {
      gen.warn(subject, text, action::k_reseat_later, current->second);
    }
  });
  out.push_back(width.result());
  out.push_back(gen.result());
}

void judge_nvlink(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.nvlink.down");
  const auto& expected = c.options.expect.nvlink_links;
  check.expect(expected ? std::to_string(*expected) + " links up on every GPU"
                        : "every link of every GPU up");
  bool any_link = false;
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    const auto links = check.value(gpu, "nvlink.links", subject);
    if (!links || !links->is_array()) {
      return;
    }
    std::vector<std::string> down;
    long up = 0;
    for (const auto& link : *links) {
      if (link.value("state", "") == "up") {
        ++up;
      } else {
        down.push_back(link.value("link", json(0)).dump());
      }
    }
    any_link = any_link || !links->empty();
    const std::string counted = std::to_string(up) + " of " + std::to_string(links->size()) + " up";
    const std::string source = fact_source(gpu, "nvlink.links");
    if (expected && up < *expected) {
      check.fail(subject,
                 std::to_string(up) + " links up, " + std::to_string(*expected) + " expected" +
                     (down.empty() ? "" : " (down: " + util::join(down, ", ") + ")"),
                 action::k_reset_gpu, source);
    } else if (!down.empty()) {
      check.fail(subject,
                 (down.size() == 1 ? "link " : "links ") + util::join(down, ", ") + " down (" +
                     counted + ")",
                 action::k_reset_gpu, source);
    } else {
      check.note(subject, links->empty() ? "no NVLink" : counted);
    }
  });
  if (!any_link && !expected && c.no_gpu.empty()) {
    check.skip("no NVLink link on any GPU");
  }
  out.push_back(check.result());
}

// Whether a GPU reports an NVLink fabric (an NVSwitch system); nothing when unknown.
bool on_fabric(const json& gpu) {
  const auto state = value_of(gpu, "fabric.state");
  return state && state->is_string() && *state != "not supported";
}

void judge_fabric(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.fabric.state");
  check.expect("completed, success");
  bool any = false;
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    const auto state = check.value(gpu, "fabric.state", subject);
    if (!state) {
      return;
    }
    const std::string source = fact_source(gpu, "fabric.state");
    if (*state == "not supported") {
      check.note(subject, "no NVLink fabric");
      return;
    }
    any = true;
    if (*state != "completed") {
      check.fail(subject, "fabric registration " + state->get<std::string>(),
                 action::k_restart_fabric_manager, source);
      return;
    }
    const auto status = value_of(gpu, "fabric.status");
    if (status && *status != "success") {
      check.fail(subject, "fabric registration failed: " + status->get<std::string>(),
                 action::k_restart_fabric_manager, source);
      return;
    }
    const auto summary = value_of(gpu, "fabric.health_summary");
    if (summary && *summary == "unhealthy") {
      check.fail(subject, "fabric health unhealthy", action::k_restart_fabric_manager, source);
    } else if (summary && *summary == "limited capacity") {
      check.warn(subject, "fabric health limited capacity", action::k_restart_fabric_manager,
                 source);
    } else {
      const auto clique = value_of(gpu, "fabric.clique");
      check.note(subject, "completed" + (clique ? ", clique " + clique->dump() : std::string()));
    }
  });
  if (!any && c.no_gpu.empty()) {
    check.skip("no GPU is on an NVLink fabric (no NVSwitch)");
  }
  out.push_back(check.result());
}

void judge_service(const JudgeContext& c, const std::string& id, const std::string& key,
                   const std::string& program, const std::optional<bool>& declared,
                   bool needed_by_fabric, const std::string& action,
                   std::vector<verify::CheckResult>& out) {
  RuleCheck check(id);
  check.expect("running");
  const bool required = declared.value_or(needed_by_fabric);
  if (!required) {
    const auto state = value_of(c.host, key);
    const std::string seen = state ? " (" + state->get<std::string>() + ")" : "";
    check.skip(declared ? "expect.host.health." + key + " is false" + seen
                        : (key == "fabric_manager"
                               ? "no GPU is on an NVLink fabric" + seen
                               : "expect.host.health." + key + " is not true" + seen));
    out.push_back(check.result());
    return;
  }
  const auto state = check.value(c.host, key, "");
  if (state && *state == "running") {
    check.note("", "running (pid " + c.host[key].value("pid", json(0)).dump() + ")");
  } else if (state) {
    // Running means a root process whose executable is the installed binary; a process of that
    // name alone is not the service (services.hpp).
    check.fail("",
               c.host[key].value("not_installed", false)
                   ? "no " + program + " installed (a root-owned binary in a system folder)"
                   : "no process of root runs the installed " + program,
               action, fact_source(c.host, key));
  }
  out.push_back(check.result());
}

} // namespace

void judge_links(const JudgeContext& context, std::vector<verify::CheckResult>& out) {
  judge_pcie(context, out);
  judge_nvlink(context, out);
  judge_fabric(context, out);
  const bool fabric = std::any_of(context.gpus.begin(), context.gpus.end(), on_fabric);
  judge_service(context, "health.fabric.manager_down", "fabric_manager", "nv-fabricmanager",
                context.options.expect.fabric_manager, fabric, action::k_start_fabric_manager, out);
  judge_service(context, "health.fabric.nvlsm_down", "nvlsm", "nvlsm", context.options.expect.nvlsm,
                false, action::k_start_nvlsm, out);
}

} // namespace envlock::node::health
