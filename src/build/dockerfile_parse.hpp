// Reading a Dockerfile into instructions, for lint and the upstream recipe: continuation lines
// (a trailing backslash) are joined, comments and blank lines dropped, each instruction keeps the
// lines it spans. Heredocs (`RUN bash <<"EOF"` ... `EOF`) of RUN, COPY and ADD are read as the
// instruction's script; as in BuildKit, a marker is a whole word (`<<EOF`, `<<-EOF`, `<<"EOF"`).
// Parser directives and the `escape` directive are not interpreted.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace envlock::build {

// One logical line of a heredoc body: continuation lines joined, with the line it starts on.
struct ScriptLine {
  int line = 0;
  std::string text;
  bool operator==(const ScriptLine&) const = default;
};

struct Instruction {
  int line = 0;                   // 1-based line of the keyword
  int end_line = 0;               // its last line, continuation lines and heredoc bodies included
  std::string keyword;            // upper case: FROM, RUN, ARG, ...
  std::string arguments;          // the rest, continuation lines joined by a space, trimmed
  std::vector<ScriptLine> script; // the lines of its heredoc bodies, without comments and blanks
};

// The instructions of `text`, in order.
std::vector<Instruction> parse_dockerfile(std::string_view text);

// Splits a shell command line into simple commands at `&&`, `||`, `;`, `|` and `&`, each a list
// of words with quotes and `#` comments removed (no expansion). Good enough to find `curl`, `pip
// install` and their arguments; not a shell.
std::vector<std::vector<std::string>> shell_commands(std::string_view command_line);

// The FROM instruction's parts: `FROM [--platform=P] IMAGE [AS NAME]`.
struct FromLine {
  std::string image;
  std::string stage;         // the AS name, as written; empty when none
  std::string platform_flag; // "--platform=..." as written, or empty
};

// Splits a FROM instruction's arguments.
FromLine parse_from(std::string_view arguments);

} // namespace envlock::build
