// How a subcommand is described. Each src/cli/<command>.cpp describes one with a CommandSpec
// (cli/commands.hpp lists them); main() builds the CLI11 app from the list, parses once, runs the
// chosen command and maps its Result to the documented exit code in one place.
#pragma once

#include "util/result.hpp"

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace envlock::cli {

// What main() runs once the command line has been parsed into the command's options.
using Runner = std::function<Result<ExitCode>()>;

struct CommandSpec {
  CommandSpec(std::string name_, std::string description_, std::function<Runner(CLI::App&)> setup_,
              std::vector<CommandSpec> subcommands_ = {})
      : name(std::move(name_)), description(std::move(description_)), setup(std::move(setup_)),
        subcommands(std::move(subcommands_)) {}

  std::string name;
  std::string description; // one line, shown by `envlock --help`
  // Adds options to the command's app and returns the runner that reads them; empty for a command
  // that only groups subcommands (one of them is then required).
  std::function<Runner(CLI::App&)> setup;
  // Nested commands (`envlock fleet verify`), built the same way; the deepest one given runs.
  std::vector<CommandSpec> subcommands;
};

// Parses argv, runs the chosen command, prints errors as "envlock: error: ..." and returns the
// process exit code.
int run_main(int argc, char** argv);

} // namespace envlock::cli
