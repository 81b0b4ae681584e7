#include "build/lint.hpp"

#include "build/dockerfile_parse.hpp"
#include "build/lint_rules.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <map>

namespace envlock::build {

namespace {

// NAME=VALUE pairs of an ARG or ENV instruction (also the old `ENV NAME VALUE` form).
std::map<std::string, std::string> assignments(const Instruction& instruction) {
  std::map<std::string, std::string> out;
  const auto commands = shell_commands(instruction.arguments);
  if (commands.empty()) {
    return out;
  }
  const auto& words = commands.front();
  if (instruction.keyword == "ENV" && words.size() >= 2 &&
      words[0].find('=') == std::string::npos) {
    out[words[0]] = util::join(std::vector<std::string>(words.begin() + 1, words.end()), " ");
    return out;
  }
  for (const auto& word : words) {
    const auto eq = word.find('=');
    out[word.substr(0, eq)] = eq == std::string::npos ? "" : word.substr(eq + 1);
  }
  return out;
}

// A RUN's command line without its leading flags (--mount=..., --network=..., --security=...).
std::string_view run_command_line(std::string_view arguments) {
  while (arguments.starts_with("--")) {
    const auto space = arguments.find_first_of(" \t");
    arguments = space == std::string_view::npos ? "" : util::trim(arguments.substr(space));
  }
  return arguments;
}

} // namespace

std::vector<Finding> lint_dockerfile(std::string_view text) {
  std::vector<Finding> out;
  std::map<std::string, std::string> global_args; // ARGs before the first FROM
  std::vector<std::string> stages;
  std::vector<int> unlocked_syncs;
  bool seen_from = false;
  bool env_locked = false;
  for (const auto& instruction : parse_dockerfile(text)) {
    const auto commands = instruction.keyword == "RUN"
                              ? shell_commands(run_command_line(instruction.arguments))
                              : lint_rules::Commands{};
    if (instruction.keyword == "ARG" && !seen_from) {
      for (auto& [name, value] : assignments(instruction)) {
        global_args[name] = value;
      }
    } else if (instruction.keyword == "FROM") {
      lint_rules::check_from(instruction, global_args, stages, out);
      const FromLine from = parse_from(instruction.arguments);
      if (!from.stage.empty()) {
        stages.push_back(util::to_lower(from.stage));
      }
      seen_from = true;
      env_locked = false; // ENV does not carry into a new stage (unless built on it; ignored)
    } else if (instruction.keyword == "ENV") {
      for (const auto& [name, value] : assignments(instruction)) {
        if ((name == "UV_LOCKED" || name == "UV_FROZEN") && value == "1") {
          env_locked = true;
        }
      }
    }
    lint_rules::check_downloads(instruction, commands, out);
    lint_rules::check_uv(instruction, commands, env_locked, unlocked_syncs, out);
    lint_rules::check_pip(instruction, commands, out);
    lint_rules::check_apt(instruction, commands, out);
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Finding& a, const Finding& b) { return a.line < b.line; });
  return out;
}

std::string format_finding(std::string_view file, const Finding& finding) {
  return std::string(file) + ":" + std::to_string(finding.line) + ": " +
         (finding.severity == Severity::error ? "error: " : "warning: ") + finding.message;
}

} // namespace envlock::build
