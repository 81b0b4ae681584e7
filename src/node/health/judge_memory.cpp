// Rules of the GPU's memory and board: row remapping, uncorrected ECC errors, page retirement,
// the ECC mode and the inforom.
#include "node/health/rule_check.hpp"
#include "node/health/value.hpp"

namespace envlock::node::health {

using nlohmann::json;

namespace {

std::string ecc_count_text(const json& value) {
  return value.is_number() ? value.dump() : "?";
}

void judge_remap(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck failure("health.gpu.row_remap_failure");
  RuleCheck pending("health.gpu.row_remap_pending");
  failure.expect("no remapping failure");
  pending.expect("no remap pending");
  for (RuleCheck* check : {&failure, &pending}) {
    const bool is_failure = check == &failure;
    const std::string key = is_failure ? "remapped_rows.failure" : "remapped_rows.pending";
    for_each_gpu(c, *check, [&](const json& gpu, const std::string& subject) {
      const auto value = check->value(gpu, key, subject);
      if (!value) {
        return;
      }
      if (!value->get<bool>()) {
        check->note(subject, is_failure ? "no failure" : "not pending");
        return;
      }
      const auto rows = value_of(gpu, "remapped_rows.uncorrectable");
      const std::string counted = " (" + ecc_count_text(rows.value_or(json(nullptr))) +
                                  " rows remapped for uncorrectable errors)";
      if (is_failure) {
        check->fail(subject, "a row remapping failed" + counted, action::k_repair,
                    fact_source(gpu, key));
      } else {
        check->fail(subject, "a row remap is pending" + counted, action::k_reset_gpu,
                    fact_source(gpu, key));
      }
    });
  }
  out.push_back(failure.result());
  out.push_back(pending.result());
}

void judge_uncorrected(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.ecc_uncorrected");
  check.expect("0 uncorrected ECC errors since the driver loaded");
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    const auto volatile_count = check.value(gpu, "ecc.uncorrected.volatile", subject);
    const auto aggregate = check.value(gpu, "ecc.uncorrected.aggregate", subject);
    if (volatile_count && volatile_count->get<std::uint64_t>() > 0) {
      check.fail(subject,
                 ecc_count_text(*volatile_count) +
                     " uncorrected ECC errors since the driver loaded",
                 action::k_reset_gpu, fact_source(gpu, "ecc.uncorrected.volatile"));
    } else if (aggregate && aggregate->get<std::uint64_t>() > 0) {
      check.warn(subject,
                 ecc_count_text(*aggregate) + " uncorrected ECC errors in the GPU's lifetime",
                 action::k_watch, fact_source(gpu, "ecc.uncorrected.aggregate"));
    } else if (volatile_count && aggregate) {
      check.note(subject, "0 volatile, 0 aggregate");
    }
  });
  out.push_back(check.result());
}

void judge_retired(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.retired_pages_pending");
  check.expect("no page retirement pending (GPUs without row remapping)");
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    if (value_of(gpu, "remapped_rows.pending")) {
      check.note(subject, "row remapping instead");
      return;
    }
    const auto value = check.value(gpu, "retired_pages.pending", subject);
    if (!value) {
      return;
    }
    if (value->get<bool>()) {
      check.fail(subject, "a page retirement is pending", action::k_reboot,
                 fact_source(gpu, "retired_pages.pending"));
    } else {
      check.note(subject, "none pending");
    }
  });
  out.push_back(check.result());
}

void judge_ecc_mode(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.ecc_disabled");
  check.expect("enabled");
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    const auto current = check.value(gpu, "ecc.mode.current", subject);
    if (!current) {
      return;
    }
    const std::string source = fact_source(gpu, "ecc.mode.current");
    if (*current != "enabled") {
      check.fail(subject, "ECC is " + current->get<std::string>(), action::k_enable_ecc, source);
      return;
    }
    const auto pending = value_of(gpu, "ecc.mode.pending");
    if (pending && *pending != *current) {
      check.warn(subject, "ECC is pending " + pending->get<std::string>(), action::k_apply_reset,
                 source);
    } else {
      check.note(subject, "enabled");
    }
  });
  out.push_back(check.result());
}

void judge_inforom(const JudgeContext& c, std::vector<verify::CheckResult>& out) {
  RuleCheck check("health.gpu.inforom");
  check.expect("valid");
  for_each_gpu(c, check, [&](const json& gpu, const std::string& subject) {
    const auto value = check.value(gpu, "inforom", subject);
    if (!value) {
      return;
    }
    if (*value == "corrupted") {
      check.fail(subject, "the inforom is corrupted", action::k_repair,
                 fact_source(gpu, "inforom"));
    } else {
      check.note(subject, value->get<std::string>());
    }
  });
  out.push_back(check.result());
}

} // namespace

void judge_memory(const JudgeContext& context, std::vector<verify::CheckResult>& out) {
  judge_remap(context, out);
  judge_uncorrected(context, out);
  judge_retired(context, out);
  judge_ecc_mode(context, out);
  judge_inforom(context, out);
}

} // namespace envlock::node::health
