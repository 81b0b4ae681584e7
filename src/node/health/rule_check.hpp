// Internal to the health judgement (judge*.cpp): the facts being judged and the builder of one
// rule's check.
#pragma once

#include "node/health/finding.hpp"
#include "node/health/judge.hpp"
#include "node/health/rules.hpp"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace envlock::node::health {

struct JudgeContext {
  const nlohmann::json& inventory; // facts["gpus"]: index, name, uuid, vbios
  const nlohmann::json& gpus;      // facts["health"]["gpus"]
  const nlohmann::json& host;      // facts["health"]["host"]
  const JudgeOptions& options;
  std::string no_gpu; // why there is no GPU to judge ("" when there is)
  // Why NVML is at fault (it loaded, then failed, answered nonsense or hung); "" when it is not.
  std::string nvml_fault;
};

class RuleCheck {
public:
  explicit RuleCheck(const std::string& id);

  // A fail or warn finding of this rule.
  void fail(const std::string& subject, const std::string& what, const std::string& action,
            const std::string& source);
  void warn(const std::string& subject, const std::string& what, const std::string& action,
            const std::string& source);
  // A value the rule needs cannot be read: a fail finding, "cannot be read: WHY", drain.
  void unreadable(const std::string& subject, const std::string& why, const std::string& source);
  // What was found for `subject` ("not pending"), for the check's `found`.
  void note(const std::string& subject, const std::string& text);
  // The value of `facts[key]`; without one, notes "not supported" or records it unreadable.
  std::optional<nlohmann::json> value(const nlohmann::json& facts, const std::string& key,
                                      const std::string& subject);
  void expect(std::string text) { m_expected = std::move(text); }
  void skip(std::string reason) { m_skip = std::move(reason); }

  [[nodiscard]] verify::CheckResult result() const;

private:
  const Rule& m_rule;
  std::vector<Finding> m_findings;
  std::vector<std::pair<std::string, std::string>> m_notes;
  std::string m_expected;
  std::string m_skip;
};

// "GPU 3"
std::string gpu_subject(const nlohmann::json& gpu);

// Where `facts[key]` came from (its "source"), or `key`.
std::string fact_source(const nlohmann::json& facts, const std::string& key);

// Calls `judge` for every GPU NVML answered for; skips the rule when there is none.
void for_each_gpu(const JudgeContext& context, RuleCheck& check,
                  const std::function<void(const nlohmann::json&, const std::string&)>& judge);

// The rules, by area; each appends its checks in health_rules() order.
void judge_gpu_access(const JudgeContext& context, std::vector<verify::CheckResult>& out);
void judge_memory(const JudgeContext& context, std::vector<verify::CheckResult>& out);
void judge_clocks(const JudgeContext& context, std::vector<verify::CheckResult>& out);
void judge_links(const JudgeContext& context, std::vector<verify::CheckResult>& out);
void judge_modes(const JudgeContext& context, std::vector<verify::CheckResult>& out);
void judge_network(const JudgeContext& context, std::vector<verify::CheckResult>& out);

} // namespace envlock::node::health
