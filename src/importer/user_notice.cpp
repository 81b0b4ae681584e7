#include "importer/user_notice.hpp"

#include "util/process.hpp"
#include "util/strings.hpp"

namespace envlock::importer {

std::string notify_job(const std::string& job, const std::vector<std::string>& warnings) {
  if (job.empty() || warnings.empty()) {
    return {};
  }
  std::vector<std::string> lines;
  lines.reserve(warnings.size());
  for (const auto& warning : warnings) {
    lines.push_back("envlock importer: warning: " + warning);
  }
  util::ProcessOptions options;
  options.die_with_parent = true;
  auto run = util::run_process(
      {"timeout", "-k", "1", "5", "scontrol", "notify", job, util::join(lines, "; ")}, options);
  if (!run) {
    return run.error().message;
  }
  if (run->exit_code != 0) {
    return "scontrol notify " + job + " exited " + std::to_string(run->exit_code) + ": " +
           std::string(util::trim(run->err));
  }
  return {};
}

} // namespace envlock::importer
