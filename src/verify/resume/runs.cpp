#include "verify/resume/runs.hpp"

#include "util/strings.hpp"
#include "verify/run_context.hpp"

#include <chrono>
#include <cstdio>
#include <functional>
#include <regex>

namespace envlock::verify {

Result<TimedRun> run_timed(std::string name, const std::vector<std::string>& argv,
                           const std::map<std::string, std::string>& env) {
  util::ProcessOptions options;
  options.env = {
      {"CUBLAS_WORKSPACE_CONFIG", ":4096:8"}, {"PYTHONHASHSEED", "0"}, {"PYTHONUNBUFFERED", "1"}};
  options.env.insert(env.begin(), env.end());
  const auto start = std::chrono::steady_clock::now();
  ENVLOCK_TRY_ASSIGN(util::ProcessResult process, util::run_process(argv, options));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return TimedRun{std::move(name), seconds, std::move(process)};
}

std::optional<Error> trainer_error(const util::ProcessResult& process, std::string_view check) {
  if (process.exit_code != 2 && process.exit_code != 3) {
    return std::nullopt;
  }
  const std::string marker = "envlock-resume: error: ";
  const auto at = process.err.rfind(marker);
  if (at == std::string::npos) {
    return std::nullopt;
  }
  std::string message(util::trim(process.err.substr(at + marker.size())));
  message = std::string(check) + ": " + message.substr(0, message.find('\n'));
  return process.exit_code == 2 ? input_error(message) : env_error(message);
}

std::string last_line(const util::ProcessResult& process) {
  // In order: the trainer's own error; a rank's exception line as torchrun prefixes it
  // ("[rank0]: RuntimeError: ..."); an exception line that is not the launcher's wrapper
  // (torch.distributed.elastic's ChildFailedError); any "Error:" line that is no log line; then
  // any line that is not a separator, a progress note or a log line (INFO, WARNING).
  static const std::regex rank_exception(
      R"(^\[(default)?rank[0-9]+\]:\s*([A-Za-z_][\w.]*)?(Error|Exception|Interrupt|Exit)\b.*)");
  static const std::regex exception(R"(^([A-Za-z_][\w.]*\.)?\w*(Error|Exception)(:.*)?$)");
  static const std::regex log_line(
      R"((^|\s|\[)(INFO|WARNING|WARN|DEBUG)(\]|\s|:)|^[IWD][0-9]{4} [0-9:.]+ )");
  const auto wrapper = [](std::string_view l) {
    return l.find("ChildFailedError") != std::string_view::npos ||
           l.find("torch.distributed.elastic") != std::string_view::npos;
  };
  const auto lines = util::split(process.err + "\n" + process.out, '\n');
  const auto find_last = [&](const std::function<bool(const std::string&)>& wanted) {
    for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
      const std::string line(util::trim(*it));
      if (!line.empty() && wanted(line)) {
        return line;
      }
    }
    return std::string();
  };
  for (const auto& wanted : std::vector<std::function<bool(const std::string&)>>{
           [](const std::string& l) { return l.starts_with("envlock-resume: error: "); },
           [&](const std::string& l) { return std::regex_match(l, rank_exception); },
           [&](const std::string& l) { return !wrapper(l) && std::regex_match(l, exception); },
           [&](const std::string& l) {
             return !wrapper(l) && l.find("Error: ") != std::string::npos &&
                    !std::regex_search(l, log_line);
           },
           [&](const std::string& l) {
             return l.find_first_not_of("=-*") != std::string::npos &&
                    l.find(" done in ") == std::string::npos && !std::regex_search(l, log_line);
           }}) {
    if (auto line = find_last(wanted); !line.empty()) {
      return line;
    }
  }
  return "no output";
}

CheckResult runs_result(const std::vector<TimedRun>& runs, int gpus) {
  std::vector<std::string> parts;
  std::string reason;
  std::string tail; // the failed run's stderr, last lines
  double total = 0;
  for (const auto& run : runs) {
    char text[64];
    if (std::snprintf(text, sizeof text, "%s %.1f s", run.name.c_str(), run.seconds) > 0) {
      parts.emplace_back(text);
    }
    total += run.seconds;
    if (run.process.exit_code != 0 && reason.empty()) {
      reason = "the " + run.name + " run exited with status " +
               std::to_string(run.process.exit_code) + ": " + last_line(run.process);
      const auto lines = util::split(run.process.err, '\n');
      const std::size_t keep = std::min<std::size_t>(lines.size(), 40);
      tail = util::join(
          std::vector<std::string>(lines.end() - static_cast<long>(keep), lines.end()), "\n");
    }
  }
  const std::string expected = std::to_string(runs.size()) + " runs on " + std::to_string(gpus) +
                               (gpus == 1 ? " GPU" : " GPUs");
  const std::string found = util::join(parts, ", ");
  CheckResult result = reason.empty()
                           ? passed("resume.runs", "Training runs", expected, found)
                           : failed("resume.runs", "Training runs", expected, found, reason);
  for (const auto& run : runs) {
    result.figures.push_back({run.name + "_s", run.seconds, "s"});
  }
  if (!tail.empty()) {
    result.details["stderr_tail"] = tail;
  }
  result.seconds = total;
  return result;
}

std::vector<CheckResult> compare_runs(const std::vector<TimedRun>& runs,
                                      const std::vector<Result<RunLog>>& logs,
                                      const ResumeTolerance& tolerance,
                                      const std::filesystem::path& continuous_params,
                                      const std::filesystem::path& resumed_params) {
  for (const auto& run : runs) {
    if (run.process.exit_code != 0) {
      const std::string reason = "the " + run.name + " run failed";
      std::vector<CheckResult> out = {skipped("resume.loss", "Loss after resuming", "", reason),
                                      skipped("resume.lr", "Learning rate schedule", "", reason)};
      if (!continuous_params.empty()) {
        out.push_back(skipped("resume.params", "Final parameters", "", reason));
      }
      return out;
    }
  }
  for (const auto& log : logs) {
    if (!log) {
      return {failed("resume.loss", "Loss after resuming", "", "", log.error().message)};
    }
  }
  const ResumeRuns stitched{*logs[0], *logs[1], *logs[2]};
  std::vector<CheckResult> out = {compare_losses(stitched, tolerance),
                                  compare_learning_rates(stitched, tolerance)};
  diagnose(tolerance, out[0], out[1]);
  if (!continuous_params.empty()) {
    out.push_back(compare_params(continuous_params, resumed_params, tolerance));
  }
  return out;
}

} // namespace envlock::verify
