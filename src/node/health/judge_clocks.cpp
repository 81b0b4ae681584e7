// Rules of clocks and heat: hardware slowdown, hardware thermal slowdown, power brake, software
// thermal slowdown (clock event reasons), and the temperature against its limit.
#include "node/health/gpu_health.hpp"
#include "node/health/rule_check.hpp"
#include "node/health/value.hpp"

#include <cstdlib>

namespace envlock::node::health {

using nlohmann::json;

namespace {

struct ClockRule {
  const char* id;
  unsigned long long bit;
  const char* what;
  const char* action;
  Severity severity;
};

void judge_clock_rule(const JudgeContext& c, const ClockRule& rule,
                      std::vector<verify::CheckResult>& out) {
  RuleCheck check(rule.id);
  check.expect("not active");
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    const auto value = check.value(gpu, "clocks.event_reasons", subject);
    if (!value || !value->is_string()) {
      return;
    }
    const std::string text = value->get<std::string>();
    const unsigned long long mask = std::strtoull(text.c_str(), nullptr, 16);
    const std::string active = clock_event_names(mask);
    if ((mask & rule.bit) == 0) {
      check.note(subject, "not active (clock event reasons " + text + ": " + active + ")");
      return;
    }
    const std::string what =
        std::string(rule.what) + " (clock event reasons " + text + ": " + active + ")";
    const std::string source = fact_source(gpu, "clocks.event_reasons");
    if (rule.severity == Severity::fail) {
      check.fail(subject, what, rule.action, source);
    } else {
      check.warn(subject, what, rule.action, source);
    }
  });
  out.push_back(check.result());
}

void judge_temperature(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.temperature");
  const auto& limit = c.options.expect.max_temperature_c;
  check.expect(limit
                   ? "below " + std::to_string(*limit) + " C (expect.host.health.max_temperature_c)"
                   : "below the GPU's slowdown threshold");
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    const auto temp = check.value(gpu, "temperature_c", subject);
    std::optional<json> bound;
    if (limit) {
      bound = json(*limit);
    } else {
      bound = check.value(gpu, "temperature.slowdown_c", subject);
    }
    if (!temp || !bound) {
      return;
    }
    const std::string text = temp->dump() + " C, limit " + bound->dump() + " C";
    if (temp->get<double>() >= bound->get<double>()) {
      check.fail(subject, text, action::k_cooling, fact_source(gpu, "temperature_c"));
    } else {
      check.note(subject, text);
    }
  });
  out.push_back(check.result());
}

} // namespace

void judge_clocks(const JudgeContext& context, std::vector<verify::CheckResult>& out) {
  const ClockRule rules[] = {
      {"health.gpu.hw_slowdown", k_clocks_hw_slowdown, "HW slowdown is active",
       action::k_cooling_power, Severity::fail},
      {"health.gpu.hw_thermal_slowdown", k_clocks_hw_thermal, "HW thermal slowdown is active",
       action::k_cooling, Severity::fail},
      {"health.gpu.power_brake", k_clocks_power_brake, "HW power brake slowdown is active",
       action::k_power, Severity::fail},
      {"health.gpu.sw_thermal_slowdown", k_clocks_sw_thermal, "SW thermal slowdown is active",
       action::k_cooling_later, Severity::warn},
  };
  for (const auto& rule : rules) {
    judge_clock_rule(context, rule, out);
  }
  judge_temperature(context, out);
}

} // namespace envlock::node::health
