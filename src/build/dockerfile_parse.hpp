// Reading a Dockerfile into instructions, for lint and the upstream recipe: continuation lines
// (a trailing backslash) are joined, comments and blank lines dropped, each instruction keeps the
// line it starts on. Parser directives, the `escape` directive and heredocs are not interpreted.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace envlock::build {

struct Instruction {
  int line = 0;          // 1-based line of the keyword
  std::string keyword;   // upper case: FROM, RUN, ARG, ...
  std::string arguments; // the rest, continuation lines joined by a space, trimmed
};

// The instructions of `text`, in order.
std::vector<Instruction> parse_dockerfile(std::string_view text);

// Splits a shell command line into simple commands at `&&`, `||`, `;`, `|` and `&`, each a list
// of words with quotes removed (no expansion). Good enough to find `curl`, `pip install` and
// their arguments; not a shell.
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
