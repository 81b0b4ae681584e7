#include "build/lint/lint.hpp"

#include "build/dockerfile_images.hpp"
#include "build/dockerfile_parse.hpp"
#include "build/lint/install_rules.hpp"
#include "build/lint/rules.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>

namespace envlock::build {

namespace {

using lint_rules::Commands;

// A RUN's command line without its leading flags (--mount=..., --network=..., --security=...).
std::string_view run_command_line(std::string_view arguments) {
  while (arguments.starts_with("--")) {
    const auto space = arguments.find_first_of(" \t");
    arguments = space == std::string_view::npos ? "" : util::trim(arguments.substr(space));
  }
  return arguments;
}

// Whether `word` opens a heredoc: `<<EOF`, `<<-EOF`, `<<"EOF"`, `3<<EOF`.
bool is_heredoc_word(std::string_view word) {
  while (!word.empty() && std::isdigit(static_cast<unsigned char>(word.front())) != 0) {
    word.remove_prefix(1);
  }
  return word.starts_with("<<") && !word.starts_with("<<<");
}

// Whether a shell runs the RUN's heredoc script: `RUN <<EOF` (the default shell) or
// `RUN bash -ex <<"EOF"`, not `RUN cat <<EOF > file`, `RUN <<EOF tee file` or `RUN python3 <<EOF`.
bool shell_reads_heredoc(const Commands& line_commands) {
  return std::any_of(line_commands.begin(), line_commands.end(), [](const auto& command) {
    lint_rules::Words words;
    std::copy_if(command.words.begin(), command.words.end(), std::back_inserter(words),
                 [](const std::string& word) { return !is_heredoc_word(word); });
    if (words.size() == command.words.size()) {
      return false;
    }
    const std::string p = lint_rules::program(words);
    return p.empty() || p == "sh" || p == "bash" || p == "dash" || p == "ash" || p == "zsh" ||
           p == "ksh";
  });
}

// The simple commands of a RUN: those of its command line, on its first line, then those of its
// heredoc script when a shell runs it, each on its own line.
Commands run_commands(const Instruction& instruction) {
  Commands out;
  for (auto& words : shell_commands(run_command_line(instruction.arguments))) {
    out.push_back({instruction.line, std::move(words)});
  }
  if (!shell_reads_heredoc(out)) {
    return out;
  }
  for (const auto& [line, text] : instruction.script) {
    for (auto& words : shell_commands(text)) {
      out.push_back({line, std::move(words)});
    }
  }
  return out;
}

// The 1-based column of the first character of line `line` (1-based) of `text` that is not a
// blank: where its instruction or heredoc command starts.
int first_column(std::string_view text, int line) {
  std::size_t at = 0;
  for (int i = 1; i < line && at != std::string_view::npos; ++i) {
    at = text.find('\n', at);
    at = at == std::string_view::npos ? at : at + 1;
  }
  if (at == std::string_view::npos) {
    return 1;
  }
  const auto first = text.find_first_not_of(" \t", at);
  return first == std::string_view::npos ? 1 : static_cast<int>(first - at) + 1;
}

} // namespace

const std::vector<RuleInfo>& lint_rule_ids() {
  static const std::vector<RuleInfo> rules{
      {"from-not-pinned", "A FROM image without @sha256:"},
      {"from-arg-without-default", "A FROM through a build argument without a default"},
      {"download-without-checksum", "curl or wget in a RUN without a checksum check"},
      {"add-without-checksum", "ADD of a URL without --checksum"},
      {"uv-sync-not-locked", "uv sync without --locked or --frozen"},
      {"uv-sync-after-unlocked", "A locked uv sync after an unlocked one"},
      {"uv-pip-outside-lock", "uv pip install or sync without --require-hashes"},
      {"pip-not-pinned", "pip install NAME without ==VERSION"},
      {"apt-not-pinned", "apt-get install of packages without =VERSION"},
      {"git-clone-not-pinned", "git clone without a later git checkout of a 40-hex commit"},
      {"git-checkout-not-pinned", "git checkout of a branch or tag"},
      {"conda-not-pinned", "conda install of packages without =VERSION"},
      {"npm-not-pinned", "npm install -g of packages without @VERSION"},
  };
  return rules;
}

std::vector<Finding> lint_dockerfile(std::string_view text) {
  std::vector<Finding> out;
  const auto instructions = parse_dockerfile(text);
  for (const auto& from : from_images(instructions, BuildArgs{})) {
    lint_rules::check_from(from, out);
  }
  std::vector<int> unlocked_syncs;
  bool env_locked = false;
  lint_rules::GitState git;
  for (const auto& instruction : instructions) {
    const auto commands =
        instruction.keyword == "RUN" ? run_commands(instruction) : lint_rules::Commands{};
    if (instruction.keyword == "FROM") {
      env_locked = false; // ENV does not carry into a new stage (unless built on it; ignored)
      lint_rules::flush_git(git, out); // nor does a clone
    } else if (instruction.keyword == "ENV") {
      for (const auto& [name, value] : assignments(instruction)) {
        if ((name == "UV_LOCKED" || name == "UV_FROZEN") && value == "1") {
          env_locked = true;
        }
      }
    }
    lint_rules::check_downloads(instruction, commands, out);
    lint_rules::check_uv(commands, env_locked, unlocked_syncs, out);
    lint_rules::check_pip(commands, out);
    lint_rules::check_apt(commands, out);
    lint_rules::check_git(commands, git, out);
    lint_rules::check_conda(commands, out);
    lint_rules::check_npm(commands, out);
  }
  lint_rules::flush_git(git, out);
  std::stable_sort(out.begin(), out.end(),
                   [](const Finding& a, const Finding& b) { return a.line < b.line; });
  for (auto& finding : out) {
    finding.column = first_column(text, finding.line);
  }
  return out;
}

std::string format_finding(std::string_view file, const Finding& finding) {
  return std::string(file) + ":" + std::to_string(finding.line) + ": " +
         (finding.severity == Severity::error ? "error: " : "warning: ") + finding.message;
}

} // namespace envlock::build
