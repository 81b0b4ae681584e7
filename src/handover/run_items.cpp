// Handover rows 5 to 7: the training sample, the procedure and its results, and the way back.
#include "handover/items.hpp"
#include "util/strings.hpp"

namespace envlock::handover::detail {

namespace {

// "pass: 12 passed, 0 failed, 1 skipped": a verification report's outcome and summary.
std::string report_summary(const formats::Report& report) {
  const formats::Summary s = formats::summarize(report.checks);
  return std::string(s.failed > 0 ? "fail" : "pass") + ": " + std::to_string(s.passed) +
         " passed, " + std::to_string(s.failed) + " failed, " + std::to_string(s.skipped) +
         " skipped";
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

// "pass: 5 passed, 0 failed, 0 not checked; checked 2026-12-01T18:00:00Z": a rollback report's
// outcome, summary and time.
std::string rollback_summary(const formats::RollbackReport& report) {
  using formats::RollbackOutcome;
  std::string out =
      std::string(formats::to_string(formats::outcome_of(report))) + ": " +
      std::to_string(formats::count_outcome(report, RollbackOutcome::pass)) + " passed, " +
      std::to_string(formats::count_outcome(report, RollbackOutcome::fail)) + " failed, " +
      std::to_string(formats::count_outcome(report, RollbackOutcome::error)) + " not checked";
  if (!report.checked_at.empty()) {
    out += "; checked " + report.checked_at;
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
    row.items.push_back(derived(report.record, "Test log " + report.record.name,
                                report_summary(report.value), "outcome, summary"));
    // The SDC check's comparison within the node, when it ran (docs/manual/verify.md).
    const auto& checks = report.value.checks;
    for (std::size_t i = 0; i < checks.size(); ++i) {
      if (checks[i].id == "sdc.node") {
        const std::string said = checks[i].reason.empty() ? checks[i].found : checks[i].reason;
        row.items.push_back(
            derived(report.record, "SDC digests " + report.record.name,
                    std::string(formats::to_string(checks[i].outcome)) + ": " + said,
                    "checks[" + std::to_string(i) + "] (sdc.node)"));
      }
    }
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
    const formats::RollbackReport& report = r.rollback->value;
    if (!report.previous_image.empty()) {
      row.items.push_back(derived(r.rollback->record, "Previous image digest",
                                  report.previous_image, "previous.image"));
    }
    row.items.push_back(derived(r.rollback->record, "Rollback check", rollback_summary(report),
                                "outcome, summary, run.checked_at"));
  } else {
    row.items.push_back(missing("Rollback check"));
  }
  bool found = false;
  for (const auto& report : r.reports) {
    const auto& checks = report.value.checks;
    for (std::size_t i = 0; i < checks.size(); ++i) {
      const std::string& id = checks[i].id;
      if (id.starts_with("resume") || id.starts_with("checkpoint.")) {
        row.items.push_back(derived(report.record, "Checkpoint compatibility (" + id + ")",
                                    formats::to_string(checks[i].outcome),
                                    "checks[" + std::to_string(i) + "].outcome"));
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
