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

// A number as the manifest declared it: 1e-06, 0.001, 100.
std::string number_text(const lock::DeclaredNumber& n) {
  return n.integer ? std::to_string(static_cast<std::int64_t>(n.value))
                   : nlohmann::json(n.value).dump();
}

// The expectations of the lock that verification judges, as one line; "" when there are none.
std::string pass_criteria(const lock::Expect& e) {
  std::vector<std::string> parts;
  for (const auto& [key, value] :
       {std::pair{"cuda", &e.cuda}, std::pair{"nccl", &e.nccl}, std::pair{"pytorch", &e.pytorch},
        std::pair{"python", &e.python}}) {
    if (!value->empty()) {
      parts.push_back(std::string(key) + " " + *value);
    }
  }
  if (e.gpus.count != 0) {
    parts.push_back("gpus " + std::to_string(e.gpus.count) +
                    (e.gpus.model.empty() ? "" : " x " + e.gpus.model));
  }
  for (const auto& [gpu, minimum] : e.nccl_busbw_gbps) {
    parts.push_back("all-reduce busbw >= " + nlohmann::json(minimum).dump() + " GB/s on " + gpu);
  }
  for (const auto& [gpu, minimums] : e.links) {
    std::vector<std::string> links;
    for (const auto& [what, number] :
         {std::pair{"GPU to GPU", &minimums.peer_gbps},
          std::pair{"host to device", &minimums.host_to_device_gbps},
          std::pair{"device to host", &minimums.device_to_host_gbps}}) {
      if (*number) {
        links.push_back(std::string(what) + " >= " + number_text(**number) + " GB/s");
      }
    }
    if (!links.empty()) {
      parts.push_back("link copies on " + gpu + ": " + util::join(links, ", "));
    }
  }
  const lock::ResumeExpect& r = e.resume;
  std::vector<std::string> resume;
  if (r.steps) {
    resume.push_back("steps " + std::to_string(*r.steps));
  }
  if (r.checkpoint_step) {
    resume.push_back("checkpoint_step " + std::to_string(*r.checkpoint_step));
  }
  for (const auto& [key, number] :
       {std::pair{"loss_abs", &r.loss_abs}, std::pair{"loss_rel", &r.loss_rel},
        std::pair{"lr_abs", &r.lr_abs}, std::pair{"param_abs", &r.param_abs},
        std::pair{"param_rel", &r.param_rel}}) {
    if (*number) {
      resume.push_back(std::string(key) + " " + number_text(**number));
    }
  }
  if (!resume.empty()) {
    parts.push_back("resume " + util::join(resume, ", "));
  }
  return util::join(parts, "; ");
}

// "pass: 5 passed, 0 failed, 0 not checked; checked 2026-12-01T18:00:00Z" from an
// envlock.rollback-report/v1 object.
std::string rollback_summary(const nlohmann::json& report) {
  std::string out = report.value("outcome", "");
  const nlohmann::json* s = json_at(report, "summary");
  if (s != nullptr && s->is_object()) {
    out += ": " + std::to_string(s->value("passed", 0)) + " passed, " +
           std::to_string(s->value("failed", 0)) + " failed, " +
           std::to_string(s->value("errors", 0)) + " not checked";
  }
  if (const auto at = pick_text(report, {"run.checked_at"})) {
    out += "; checked " + at->first;
  }
  return out;
}

// "SHA256 (N bytes)"
std::string file_text(const lock::HashedFile& file) {
  return file.sha256 + " (" + std::to_string(file.size) + " bytes)";
}

} // namespace

HandoverRow training_row(const Records& r) {
  HandoverRow row{"training",
                  "Training configuration, tokenizer, sample data and checksums",
                  "Repeat the same training sample",
                  {}};
  const lock::Training* t = r.lock && r.lock->lock.training ? &*r.lock->lock.training : nullptr;
  if (t == nullptr || lock::training_files(*t).empty()) {
    row.items = {missing("Training configuration"), missing("Tokenizer"), missing("Sample data"),
                 missing("Checksums")};
    return row;
  }
  const Record& lock = r.lock->record;
  const auto file_items = [&](const std::string& label, const lock::HashedFile& file,
                              const std::string& field) {
    row.items.push_back(derived(lock, label, file.path, field + ".path"));
    row.items.push_back(
        derived(lock, "sha256 of " + file.path, file_text(file), field + ".sha256, size"));
  };
  if (t->config) {
    file_items("Training configuration", *t->config, "training.config");
  } else {
    row.items.push_back(missing("Training configuration"));
  }
  if (t->tokenizer && !t->tokenizer->empty()) {
    for (std::size_t i = 0; i < t->tokenizer->size(); ++i) {
      file_items("Tokenizer", (*t->tokenizer)[i], "training.tokenizer[" + std::to_string(i) + "]");
    }
  } else {
    row.items.push_back(missing("Tokenizer"));
  }
  if (t->data) {
    row.items.push_back(derived(lock, "Sample data", t->data->prefix, "training.data.prefix"));
    row.items.push_back(derived(lock, "sha256 of " + t->data->bin.path, file_text(t->data->bin),
                                "training.data.bin.sha256, size"));
    row.items.push_back(derived(lock, "sha256 of " + t->data->idx.path, file_text(t->data->idx),
                                "training.data.idx.sha256, size"));
  } else {
    row.items.push_back(missing("Sample data"));
  }
  return row;
}

HandoverRow procedure_row(const Records& r) {
  HandoverRow row{"procedure",
                  "Launch commands, directory locations, pass criteria and test logs",
                  "Let a colleague repeat the procedure and judge the result",
                  {}};
  row.items.push_back(
      from_lock(r.lock, "Launch command", "launch.command",
                [](const lock::Lock& l) { return l.launch ? l.launch->command : std::string(); }));
  bool folders = false;
  if (r.lock && r.lock->lock.training && !r.lock->lock.training->checkpoint_dir.empty()) {
    row.items.push_back(derived(r.lock->record, "Checkpoint folder",
                                r.lock->lock.training->checkpoint_dir, "training.checkpoint_dir"));
    folders = true;
  }
  if (r.lock && r.lock->lock.launch) {
    for (const auto& [name, path] : r.lock->lock.launch->directories) {
      row.items.push_back(
          derived(r.lock->record, "Folder " + name, path, "launch.directories." + name));
      folders = true;
    }
  }
  if (!folders) {
    row.items.push_back(missing("Directory locations"));
  }
  row.items.push_back(from_lock(r.lock, "Pass criteria", "expect",
                                [](const lock::Lock& l) { return pass_criteria(l.expect); }));
  if (r.lock && !r.lock->lock.expect.host.empty()) {
    row.items.push_back(derived(r.lock->record, "Supported host combination",
                                lock::host_expect_to_json(r.lock->lock.expect.host).dump(),
                                "expect.host"));
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
  row.items.push_back(from_lock(r.previous_lock, "Previous base image", "base_image.reference",
                                [](const lock::Lock& l) { return l.base_image.reference; }));
  row.items.push_back(from_lock(r.previous_lock, "Previous base image digest", "base_image.digest",
                                [](const lock::Lock& l) { return l.base_image.digest; }));
  row.items.push_back(from_lock(r.previous_lock, "Previous image", "image.tag",
                                [](const lock::Lock& l) { return l.image.tag; }));
  if (r.previous_lock) {
    row.items.push_back(derived(r.previous_lock->record, "Previous lock sha256",
                                r.previous_lock->record.sha256, "sha256 of the file"));
  } else {
    row.items.push_back(missing("Previous lock sha256"));
  }
  if (r.rollback) {
    const nlohmann::json& report = r.rollback->json;
    if (const auto image = pick_text(report, {"previous.image"})) {
      row.items.push_back(
          derived(*r.rollback, "Previous image digest", image->first, "previous.image"));
    }
    row.items.push_back(derived(*r.rollback, "Rollback check", rollback_summary(report),
                                "outcome, summary, run.checked_at"));
  } else {
    row.items.push_back(missing("Rollback check"));
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
      if (id && outcome &&
          (id->first.rfind("resume", 0) == 0 || id->first.rfind("checkpoint.", 0) == 0)) {
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
