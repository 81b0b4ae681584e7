// Rules health.gpu.nvml, health.gpu.lost and health.gpu.xid.
#include "node/health/rule_check.hpp"
#include "node/health/value.hpp"
#include "node/health/xid_table.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>

namespace envlock::node::health {

using nlohmann::json;

namespace {

void judge_nvml(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.nvml");
  check.expect("NVML answers for every GPU");
  if (!c.nvml_fault.empty()) {
    // NVML that loaded and then failed, answered nonsense or hung fails the node whatever the
    // lock expects of its GPUs; the GPUs it did answer for are judged by the other rules.
    check.fail("", c.nvml_fault, action::k_drain, "nvml");
  }
  if (!c.no_gpu.empty()) {
    if (c.nvml_fault.empty() && c.options.gpus == GpusExpected::yes) {
      check.fail("", c.no_gpu.substr(c.no_gpu.find(": ") + 2), action::k_drain, "nvml");
    } else if (c.nvml_fault.empty()) {
      check.skip(c.no_gpu + " (the lock expects none)");
    }
    out.push_back(check.result());
    return;
  }
  for (const auto& gpu : c.gpus) {
    if (gpu.contains("missing")) {
      check.fail(gpu_subject(gpu), gpu.value("missing", std::string()), action::k_drain,
                 "nvmlDeviceGetHandleByIndex_v2");
    } else {
      check.note(gpu_subject(gpu), "answers");
    }
  }
  out.push_back(check.result());
}

void judge_lost(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.lost");
  check.expect("every GPU reachable");
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    if (gpu.value("lost", false)) {
      check.fail(subject, "NVML: GPU is lost (fallen off the bus or otherwise inaccessible)",
                 action::k_reboot, "nvml");
    } else {
      check.note(subject, "reachable");
    }
  });
  out.push_back(check.result());
}

// The first `max` bytes of `text`, cut before a character, never inside one.
std::string utf8_prefix(const std::string& text, std::size_t max) {
  if (text.size() <= max) {
    return text;
  }
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) {
    --cut;
  }
  return text.substr(0, cut);
}

std::string xid_time_text(const json& seconds) {
  if (!seconds.is_number()) {
    return "";
  }
  std::array<char, 32> text{};
  (void)std::snprintf(text.data(), text.size(), "%.1f", seconds.get<double>());
  return std::string(" at ") + text.data() + " s after boot";
}

std::string xid_subject(const json& event) {
  if (event.contains("gpu") && event["gpu"].is_number_integer()) {
    return "GPU " + event["gpu"].dump();
  }
  return "PCI " + event.value("pci", std::string("?"));
}

void judge_xids(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.xid");
  const auto& tolerated = c.options.expect.tolerated_xids;
  std::vector<std::string> tolerated_text;
  for (const auto xid : tolerated.value_or(std::vector<std::int64_t>{})) {
    tolerated_text.push_back(std::to_string(xid));
  }
  check.expect("no XID since boot whose action is a reset, a reboot or a drain" +
               (tolerated_text.empty() ? std::string()
                                       : " (tolerated: " + util::join(tolerated_text, ", ") + ")"));
  const auto events = value_of(c.host, "xids");
  const std::string source =
      c.host.contains("xids") ? c.host["xids"].value("source", "/dev/kmsg") : "/dev/kmsg";
  if (!events || !events->is_array()) {
    if (!c.no_gpu.empty() && c.options.gpus == GpusExpected::no) {
      check.skip(c.no_gpu);
    } else if (c.host.contains("xids") && c.host["xids"].value("denied", false)) {
      // Not root: nothing is known of the node's XIDs, and nothing wrong with it either. The
      // prolog and the health check run as root.
      check.skip("the kernel log cannot be read without root: " + why_missing(c.host, "xids"));
    } else {
      check.unreadable("", why_missing(c.host, "xids"), source);
    }
    out.push_back(check.result());
    return;
  }
  // One finding per XID and GPU: the count and the last time.
  struct Seen {
    json last;
    int count = 0;
  };
  std::vector<std::pair<long, std::string>> order;
  std::map<std::pair<long, std::string>, Seen> seen;
  for (const auto& event : *events) {
    const std::pair<long, std::string> key{event.value("xid", 0L), xid_subject(event)};
    if (seen.find(key) == seen.end()) {
      order.push_back(key);
    }
    seen[key].last = event;
    ++seen[key].count;
  }
  for (const auto& key : order) {
    const auto& [xid, subject] = key;
    const Seen& s = seen[key];
    const XidInfo info = describe_xid(xid, s.last.value("message", std::string()));
    const bool is_tolerated =
        tolerated && std::find(tolerated->begin(), tolerated->end(), xid) != tolerated->end();
    std::string what = "XID " + std::to_string(xid) + " (" + info.meaning + ")" +
                       xid_time_text(s.last.value("seconds", json(nullptr)));
    if (s.count > 1) {
      what += ", " + std::to_string(s.count) + " times";
    }
    if (info.kind == XidKind::unknown) {
      what += ": " + utf8_prefix(s.last.value("message", std::string()), 80);
    }
    if (is_tolerated) {
      check.note(subject, "XID " + std::to_string(xid) + " tolerated");
      continue;
    }
    switch (info.kind) {
    case XidKind::application:
      check.warn(subject, what, action::k_restart_app, source);
      break;
    case XidKind::informational:
      check.note(subject, "XID " + std::to_string(xid) + " (" + info.meaning + ")");
      break;
    case XidKind::reset_gpu:
      check.fail(subject, what, action::k_reset_gpu, source);
      break;
    case XidKind::reboot:
      check.fail(subject, what, action::k_reboot, source);
      break;
    case XidKind::drain:
    case XidKind::unknown:
      check.fail(subject, what, action::k_drain, source);
      break;
    }
  }
  if (events->empty()) {
    check.note("", "no XID since boot (" + source + ")");
  }
  out.push_back(check.result());
}

} // namespace

void judge_gpu_access(const JudgeContext& context, std::vector<verify::CheckResult>& out) {
  judge_nvml(context, out);
  judge_lost(context, out);
  judge_xids(context, out);
}

} // namespace envlock::node::health
