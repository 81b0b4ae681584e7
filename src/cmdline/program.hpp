// How every executable (envlock, envlock-verify, envlock-importer) starts: the same help
// (cmdline/help.hpp), `-h,--help` and `--version` worded alike, and one parse that turns CLI11's
// outcomes into the documented exit codes.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

namespace envlock::cmdline {

// Sets up `app` (before its options and commands are added, which inherit it): the help
// formatter, "-h,--help  Print this help and exit", "--version  Print the version and exit"
// (printing "NAME VERSION"), and the footer (an example and the manual page).
void set_up_program(CLI::App& app, const std::string& example, const std::string& manual);

// Parses argv into `app`. Returns the exit code to end with, or nothing when the command given
// should run:
// - --help: the help of the command it was given to, on standard output, 0;
// - --version: "NAME VERSION" on standard output, 0;
// - a command that only groups others, alone (`envlock`, `envlock fleet`): its help, with its
//   commands one line each, on standard output, 2;
// - anything else CLI11 refuses: usage_message() on standard error, 2.
std::optional<int> parse(CLI::App& app, int argc, char** argv);

} // namespace envlock::cmdline
