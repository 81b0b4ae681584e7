#include "node/health/judge.hpp"

#include "node/health/rule_check.hpp"
#include "node/health/value.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <map>

namespace envlock::node::health {

using nlohmann::json;

namespace {

// "GPUs 0-3, 5" for the GPU subjects of a group; other subjects as they are.
std::string subjects_text(const std::vector<std::string>& subjects) {
  std::vector<long> gpus;
  std::vector<std::string> others;
  for (const auto& s : subjects) {
    if (s.rfind("GPU ", 0) == 0 && s.size() > 4 &&
        s.find_first_not_of("0123456789", 4) == std::string::npos && s.size() < 12) {
      gpus.push_back(std::stol(s.substr(4)));
    } else {
      others.push_back(s);
    }
  }
  std::sort(gpus.begin(), gpus.end());
  std::vector<std::string> ranges;
  for (std::size_t i = 0; i < gpus.size();) {
    std::size_t j = i;
    while (j + 1 < gpus.size() && gpus[j + 1] == gpus[j] + 1) {
      ++j;
    }
    ranges.push_back(j == i ? std::to_string(gpus[i])
                            : std::to_string(gpus[i]) + "-" + std::to_string(gpus[j]));
    i = j + 1;
  }
  std::vector<std::string> parts;
  if (!gpus.empty()) {
    parts.push_back((gpus.size() == 1 ? "GPU " : "GPUs ") + util::join(ranges, ", "));
  }
  parts.insert(parts.end(), others.begin(), others.end());
  return util::join(parts, ", ");
}

} // namespace

RuleCheck::RuleCheck(const std::string& id) : m_rule(health_rule(id)) {}

void RuleCheck::fail(const std::string& subject, const std::string& what, const std::string& action,
                     const std::string& source) {
  m_findings.push_back({m_rule.id, Severity::fail, subject, what, action, source});
}

void RuleCheck::warn(const std::string& subject, const std::string& what, const std::string& action,
                     const std::string& source) {
  m_findings.push_back({m_rule.id, Severity::warn, subject, what, action, source});
}

void RuleCheck::unreadable(const std::string& subject, const std::string& why,
                           const std::string& source) {
  fail(subject, "cannot be read: " + why, action::k_drain, source);
}

void RuleCheck::note(const std::string& subject, const std::string& text) {
  m_notes.emplace_back(subject, text);
}

std::optional<json> RuleCheck::value(const json& facts, const std::string& key,
                                     const std::string& subject) {
  if (auto v = value_of(facts, key)) {
    return v;
  }
  const std::string source = fact_source(facts, key);
  if (unsupported(facts, key)) {
    note(subject, key + " not supported");
  } else {
    unreadable(subject, why_missing(facts, key), source);
  }
  return std::nullopt;
}

verify::CheckResult RuleCheck::result() const {
  verify::CheckResult r;
  r.id = m_rule.id;
  r.group = "health";
  r.title = m_rule.title;
  r.expected = m_expected;
  // found: the notes grouped by text, in first-seen order ("not pending (GPUs 0-7)").
  std::vector<std::string> texts;
  std::map<std::string, std::vector<std::string>> by_text;
  for (const auto& [subject, text] : m_notes) {
    if (by_text.find(text) == by_text.end()) {
      texts.push_back(text);
    }
    by_text[text].push_back(subject);
  }
  std::vector<std::string> found;
  for (const auto& text : texts) {
    const std::string who = subjects_text(by_text[text]);
    found.push_back(who.empty() ? text : text + " (" + who + ")");
  }
  r.found = util::join(found, "; ");
  json findings = json::array();
  std::vector<std::string> failures;
  std::vector<std::string> warnings;
  for (const auto& f : m_findings) {
    findings.push_back(finding_to_json(f));
    (f.severity == Severity::fail ? failures : warnings).push_back(f.text());
    if (f.severity == Severity::fail && !r.details.contains("drain")) {
      r.details["drain"] = f.drain_line();
    }
  }
  if (!m_findings.empty()) {
    r.details["findings"] = std::move(findings);
  }
  if (!failures.empty()) {
    r.outcome = verify::Outcome::fail;
    r.reason = util::join(failures, "; ");
    if (!warnings.empty()) {
      r.reason += "; warning: " + util::join(warnings, "; warning: ");
    }
  } else if (!warnings.empty()) {
    r.outcome = verify::Outcome::pass;
    r.reason = "warning: " + util::join(warnings, "; warning: ");
  } else if (!m_skip.empty()) {
    r.outcome = verify::Outcome::skip;
    r.reason = m_skip;
  } else {
    r.outcome = verify::Outcome::pass;
  }
  return r;
}

std::string gpu_subject(const json& gpu) {
  return "GPU " + gpu.value("index", json(0)).dump();
}

std::string fact_source(const json& facts, const std::string& key) {
  return facts.contains(key) && facts[key].is_object() ? facts[key].value("source", key) : key;
}

void for_each_gpu(const JudgeContext& context, RuleCheck& check,
                  const std::function<void(const json&, const std::string&)>& judge) {
  if (!context.no_gpu.empty()) {
    check.skip(context.no_gpu);
    return;
  }
  for (const auto& gpu : context.gpus) {
    if (!gpu.contains("missing")) {
      judge(gpu, gpu_subject(gpu));
    }
  }
}

std::vector<verify::CheckResult> check_health(const json& facts, const JudgeOptions& options) {
  static const json k_empty_list = json::array();
  static const json k_empty_object = json::object();
  const json* health = facts.contains("health") ? &facts["health"] : &k_empty_object;
  const auto pick = [](const json& parent, const char* key, const json& fallback) -> const json& {
    return parent.contains(key) ? parent[key] : fallback;
  };
  const json& gpus = pick(*health, "gpus", k_empty_list);
  JudgeContext context{pick(facts, "gpus", k_empty_list),
                       gpus,
                       pick(*health, "host", k_empty_object),
                       options,
                       "",
                       ""};
  if (health->contains("nvml") && (*health)["nvml"].is_object() &&
      (*health)["nvml"].value("fault", false)) {
    context.nvml_fault = why_missing(*health, "nvml");
  }
  if (gpus.empty()) {
    const std::string why =
        value_of(*health, "nvml") ? std::string("NVML found no GPU") : why_missing(*health, "nvml");
    context.no_gpu = "no GPU to judge: " + why;
  }
  std::vector<verify::CheckResult> out;
  judge_gpu_access(context, out);
  judge_memory(context, out);
  judge_clocks(context, out);
  judge_links(context, out);
  judge_modes(context, out);
  judge_network(context, out);
  // In the rules' order, whatever order the areas appended them in.
  const auto& rules = health_rules();
  const auto rank = [&](const verify::CheckResult& c) {
    return std::find_if(rules.begin(), rules.end(), [&](const Rule& r) { return r.id == c.id; }) -
           rules.begin();
  };
  std::stable_sort(out.begin(), out.end(),
                   [&](const verify::CheckResult& a, const verify::CheckResult& b) {
                     return rank(a) < rank(b);
                   });
  return out;
}

JudgeOptions judge_options(const lock::Expect& expect, Idle idle) {
  JudgeOptions options;
  options.expect = expect.health.value_or(lock::HealthExpect{});
  options.idle = idle;
  // GPUs are expected where the lock says so anywhere: expect.gpus, or expect.host's gpu.count
  // (other than 0) or gpu.model.
  bool host_gpus = expect.host.count("gpu.model") > 0;
  if (const auto count = expect.host.find("gpu.count"); count != expect.host.end()) {
    for (const auto& entry : count->second.entries) {
      host_gpus = host_gpus || entry.text != "0";
    }
  }
  options.gpus = expect.gpus.count > 0 || host_gpus ? GpusExpected::yes : GpusExpected::no;
  return options;
}

} // namespace envlock::node::health
