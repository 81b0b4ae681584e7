#include "importer/log_query.hpp"

#include "importer/audit_log.hpp"
#include "importer/config_choice.hpp"

#include <iostream>

namespace envlock::importer {

namespace {

bool matches(const LogQuery& q, const AuditEntry& e) {
  return (q.job.empty() || e.job == q.job) && (q.node.empty() || e.node == q.node) &&
         (q.command.empty() || e.command == q.command);
}

std::string short_sha(const std::string& sha) {
  return sha.size() > 12 ? sha.substr(0, 12) : sha;
}

// TIME  JOB.STEP  NODE  USER  COMMAND  OUTCOME  IMAGE -> PIN -> SQSH
std::string line_of(const AuditEntry& e) {
  std::string line = e.time + "  job " + (e.job.empty() ? "-" : e.job) +
                     (e.step.empty() ? "" : "." + e.step) + "  " + e.node + "  " +
                     (e.user.empty() ? "uid " + std::to_string(e.uid) : e.user) + "  " + e.command +
                     "  " + to_string(e.outcome);
  if (!e.image.empty()) {
    line += "  " + e.image;
  }
  if (!e.pin_role.empty()) {
    line += "  pin " + e.pin_role + " " + e.pin_manifest_digest + " (" + e.pin_lock + ")";
  }
  if (!e.sqsh_path.empty()) {
    line += "  " + e.sqsh_source + " " + e.sqsh_path + " sha256 " + short_sha(e.sqsh_sha256);
  }
  if (!e.message.empty()) {
    line += "  error: " + e.message;
  }
  for (const auto& warning : e.warnings) {
    line += "  warning: " + warning;
  }
  return line;
}

} // namespace

void add_log_options(CLI::App& app, LogQuery& q) {
  app.add_option("--log", q.log, "The audit log (default: log: of the configuration)")
      ->type_name("FILE");
  app.add_option("--job", q.job, "Only this job's lines")->type_name("JOBID");
  app.add_option("--node", q.node, "Only this node's lines")->type_name("NODE");
  app.add_option("--command", q.command, "Only get, release, check, fill or scan")
      ->type_name("NAME")
      ->check(CLI::IsMember({"get", "release", "check", "fill", "scan"}));
  app.add_option("--format", q.format, "text or json")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
}

Result<ExitCode> run_log(const LogQuery& q) {
  std::filesystem::path log = q.log;
  if (log.empty()) {
    ENVLOCK_TRY_ASSIGN(const ImporterConfig config, load_config(choose_config()));
    if (config.log.empty()) {
      return input_error(config.file.string() + " names no audit log (log:); give --log FILE");
    }
    log = config.log;
  }
  ENVLOCK_TRY_ASSIGN(const AuditLog read, read_audit_log(log));
  for (const auto& problem : read.problems) {
    std::cerr << "envlock importer: warning: " << problem << "; line skipped\n";
  }
  nlohmann::json array = nlohmann::json::array();
  int count = 0;
  for (const auto& entry : read.entries) {
    if (!matches(q, entry)) {
      continue;
    }
    ++count;
    if (q.format == "json") {
      array.push_back(to_json(entry));
    } else {
      std::cout << line_of(entry) << "\n";
    }
  }
  if (q.format == "json") {
    std::cout << array.dump(2) << "\n";
  }
  return count > 0 ? ExitCode::ok : ExitCode::failed;
}

} // namespace envlock::importer
