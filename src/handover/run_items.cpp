// Handover rows 5 to 7: the training sample, the procedure and its results, and the way back.
#include "handover/items.hpp"
#include "handover/json_pick.hpp"
#include "util/strings.hpp"

namespace envlock::handover::detail {

namespace {

// "pass: 12 passed, 0 failed, 1 skipped" from an envlock.report/v1 object; "" if it has none.
std::string report_summary(const nlohmann::json& report) {
  const auto outcome = pick_text(report, {"outcome"});
  const nlohmann::json* s = json_at(report, "summary");
  if (!outcome || s == nullptr || !s->is_object()) {
    return outcome ? outcome->first : "";
  }
  return outcome->first + ": " + std::to_string(s->value("passed", 0)) + " passed, " +
         std::to_string(s->value("failed", 0)) + " failed, " +
         std::to_string(s->value("skipped", 0)) + " skipped";
}

// The expectations of the lock that verification judges, as one line; "" when there are none.
std::string pass_criteria(const nlohmann::json& lock) {
  std::vector<std::string> parts;
  for (const char* key : {"cuda", "nccl", "pytorch", "python"}) {
    if (const auto v = pick_text(lock, {std::string("expect.") + key})) {
      parts.push_back(std::string(key) + " " + v->first);
    }
  }
  const auto count = pick_text(lock, {"expect.gpus.count"});
  const auto model = pick_text(lock, {"expect.gpus.model"});
  if (count && count->first != "0") {
    parts.push_back("gpus " + count->first + (model ? " x " + model->first : ""));
  }
  const nlohmann::json* bw = json_at(lock, "expect.nccl_busbw_gbps");
  if (bw != nullptr && bw->is_object()) {
    for (const auto& [gpu, v] : bw->items()) {
      parts.push_back("all-reduce busbw >= " + v.dump() + " GB/s on " + gpu);
    }
  }
  return util::join(parts, "; ");
}

} // namespace

HandoverRow training_row(const Records& r) {
  HandoverRow row{"training",
                  "Training configuration, tokenizer, sample data and checksums",
                  "Repeat the same training sample",
                  {}};
  row.items = {
      pick(r.lock, "Training configuration",
           {"training.config", "expect.resume.config", "expect.resume.training_config"}),
      pick(r.lock, "Tokenizer", {"training.tokenizer", "expect.resume.tokenizer"}),
      pick(r.lock, "Sample data",
           {"training.data", "expect.resume.data", "expect.resume.data_path"}),
      pick(r.lock, "Checksums",
           {"training.sha256", "expect.resume.sha256", "expect.resume.data_sha256"}),
  };
  return row;
}

HandoverRow procedure_row(const Records& r) {
  HandoverRow row{"procedure",
                  "Launch commands, directory locations, pass criteria and test logs",
                  "Let a colleague repeat the procedure and judge the result",
                  {}};
  row.items.push_back(pick(r.lock, "Launch command",
                           {"launch.command", "training.command", "expect.resume.command"}));
  row.items.push_back(pick(r.lock, "Directory locations",
                           {"launch.mounts", "training.mounts", "expect.resume.checkpoint_dir"}));
  const std::string criteria = r.lock ? pass_criteria(r.lock->json) : "";
  row.items.push_back(criteria.empty() ? missing("Pass criteria")
                                       : derived(*r.lock, "Pass criteria", criteria, "expect"));
  const nlohmann::json* host = r.lock ? json_at(r.lock->json, "expect.host") : nullptr;
  if (host != nullptr && host->is_object() && !host->empty()) {
    row.items.push_back(
        derived(*r.lock, "Supported host combination", host->dump(), "expect.host"));
  }
  if (r.reports.empty()) {
    row.items.push_back(missing("Test logs"));
  }
  for (const auto& report : r.reports) {
    const std::string summary = report_summary(report.json);
    row.items.push_back(
        summary.empty() ? missing("Test log " + report.name)
                        : derived(report, "Test log " + report.name, summary, "outcome, summary"));
  }
  return row;
}

HandoverRow rollback_row(const Records& r) {
  HandoverRow row{"rollback",
                  "Previous environment and checkpoint-compatibility records",
                  "Restore training if an update causes a problem",
                  {}};
  row.items.push_back(pick(r.previous_lock, "Previous base image", {"base_image.reference"}));
  row.items.push_back(pick(r.previous_lock, "Previous base image digest", {"base_image.digest"}));
  row.items.push_back(pick(r.previous_lock, "Previous image", {"image.tag"}));
  if (r.previous_lock) {
    row.items.push_back(derived(*r.previous_lock, "Previous lock sha256", r.previous_lock->sha256,
                                "sha256 of the file"));
  } else {
    row.items.push_back(missing("Previous lock sha256"));
  }
  bool found = false;
  for (const auto& report : r.reports) {
    const nlohmann::json* checks = json_at(report.json, "checks");
    if (checks == nullptr || !checks->is_array()) {
      continue;
    }
    for (std::size_t i = 0; i < checks->size(); ++i) {
      const auto id = pick_text((*checks)[i], {"id"});
      const auto outcome = pick_text((*checks)[i], {"outcome"});
      if (id && outcome && id->first.rfind("resume", 0) == 0) {
        row.items.push_back(derived(report, "Checkpoint compatibility (" + id->first + ")",
                                    outcome->first, "checks[" + std::to_string(i) + "].outcome"));
        found = true;
      }
    }
  }
  if (!found) {
    row.items.push_back(missing("Checkpoint compatibility"));
  }
  return row;
}

} // namespace envlock::handover::detail
