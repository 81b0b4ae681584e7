// Rules of the GPU's modes and use: MIG, processes on an idle node, persistence mode, and one
// VBIOS on every GPU.
#include "node/health/rule_check.hpp"
#include "node/health/value.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <map>

namespace envlock::node::health {

using nlohmann::json;

namespace {

void judge_mig(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.mig");
  const lock::MigExpect expected = c.options.expect.mig.value_or(lock::MigExpect::disabled);
  if (expected == lock::MigExpect::any) {
    check.skip("expect.host.health.mig is any");
    out.push_back(check.result());
    return;
  }
  const std::string want = lock::to_string(expected);
  check.expect(want);
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    const std::string source = fact_source(gpu, "mig.current");
    if (unsupported(gpu, "mig.current")) {
      if (expected == lock::MigExpect::disabled) {
        check.note(subject, "no MIG on this GPU");
      } else {
        check.fail(subject, "MIG is not supported", action::k_set_mig, source);
      }
      return;
    }
    const auto current = check.value(gpu, "mig.current", subject);
    if (!current) {
      return;
    }
    if (*current != want) {
      check.fail(subject, "MIG is " + current->get<std::string>(), action::k_set_mig, source);
      return;
    }
    const auto pending = value_of(gpu, "mig.pending");
    if (pending && *pending != *current) {
      check.warn(subject, "MIG is pending " + pending->get<std::string>(), action::k_apply_reset,
                 source);
    } else {
      check.note(subject, current->get<std::string>());
    }
  });
  out.push_back(check.result());
}

std::string process_text(const json& p) {
  std::string text = p.value("pid", json(0)).dump();
  if (p.contains("name") && p["name"].is_string()) {
    text += " " + p["name"].get<std::string>();
  }
  if (p.contains("used_mib") && p["used_mib"].is_number()) {
    text += " (" + p["used_mib"].dump() + " MiB)";
  }
  return text;
}

// Whether process `p` was started by the check itself: root's, and `own` holds it or one of its
// ancestors.
bool own_process(const json& p, const std::vector<long>& own) {
  if (own.empty() || p.value("uid", json()) != json(0)) {
    return false;
  }
  const auto is_own = [&](const json& pid) {
    return pid.is_number_integer() &&
           std::find(own.begin(), own.end(), pid.get<long>()) != own.end();
  };
  if (is_own(p.value("pid", json()))) {
    return true;
  }
  const json ancestors = p.value("ancestors", json::array());
  return ancestors.is_array() && std::any_of(ancestors.begin(), ancestors.end(), is_own);
}

void judge_processes(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.processes");
  check.expect("none (--idle)");
  if (c.options.idle != Idle::expected) {
    check.skip("not judged: the node may be running jobs (no --idle)");
    out.push_back(check.result());
    return;
  }
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    const auto list = check.value(gpu, "processes", subject);
    if (!list || !list->is_array()) {
      return;
    }
    // The prolog's own envlock-verify runs its smoke kernel on the GPUs meanwhile: it is told
    // by who started it (root, below an --own-pid), never by its name.
    std::vector<std::string> texts;
    for (const auto& p : *list) {
      if (!own_process(p, c.options.own_pids)) {
        texts.push_back(process_text(p));
      }
    }
    if (texts.empty()) {
      check.note(subject, list->empty() ? "none" : "only the check's own");
      return;
    }
    check.fail(subject,
               std::to_string(texts.size()) + (texts.size() == 1 ? " process: " : " processes: ") +
                   util::join(texts, ", "),
               action::k_end_processes, fact_source(gpu, "processes"));
  });
  out.push_back(check.result());
}

void judge_persistence(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.persistence_off");
  check.expect("enabled");
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    const auto mode = check.value(gpu, "persistence", subject);
    if (!mode) {
      return;
    }
    if (*mode != "enabled") {
      check.warn(subject, "persistence mode is " + mode->get<std::string>(), action::k_persistence,
                 fact_source(gpu, "persistence"));
    } else {
      check.note(subject, "enabled");
    }
  });
  out.push_back(check.result());
}

void judge_vbios(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.vbios_mixed");
  check.expect("one VBIOS version");
  if (!c.no_gpu.empty()) {
    check.skip(c.no_gpu);
    out.push_back(check.result());
    return;
  }
  std::map<std::string, std::vector<std::string>> by_version;
  for (const auto& gpu : c.inventory) {
    const std::string subject = gpu_subject(gpu);
    if (gpu.contains("vbios") && gpu["vbios"].is_string()) {
      by_version[gpu["vbios"].get<std::string>()].push_back(subject);
    } else {
      check.unreadable(subject, "NVML gave no VBIOS version", "nvmlDeviceGetVbiosVersion");
    }
  }
  for (const auto& [version, subjects] : by_version) {
    for (const auto& subject : subjects) {
      check.note(subject, version);
    }
  }
  if (by_version.size() > 1) {
    std::vector<std::string> versions;
    for (const auto& [version, subjects] : by_version) {
      versions.push_back(version + " on " + std::to_string(subjects.size()) +
                         (subjects.size() == 1 ? " GPU" : " GPUs"));
    }
    check.warn("", "VBIOS versions differ: " + util::join(versions, ", "), action::k_vbios,
               "nvmlDeviceGetVbiosVersion");
  }
  out.push_back(check.result());
}

} // namespace

void judge_modes(const JudgeContext& context, std::vector<verify::CheckResult>& out) {
  judge_mig(context, out);
  judge_processes(context, out);
  judge_persistence(context, out);
  judge_vbios(context, out);
}

} // namespace envlock::node::health
