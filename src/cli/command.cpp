#include "cli/command.hpp"

#include "cli/commands.hpp"
#include "cmdline/help.hpp"
#include "cmdline/program.hpp"
#include "cmdline/usage_error.hpp"
#include "util/interrupt.hpp"

#include <exception>
#include <iostream>

namespace envlock::cli {

namespace {

// A command's app, its runner and its subcommands', as built from a CommandSpec.
struct CommandNode {
  CLI::App* app = nullptr;
  Runner runner;
  std::vector<CommandNode> children;
};

CommandNode add_command(CLI::App& parent, const CommandSpec& spec) {
  CommandNode node;
  node.app = parent.add_subcommand(spec.name, spec.description);
  node.app->footer(""); // not the parent's: its own (setup sets it), or its commands' examples
  if (spec.setup) {
    node.runner = spec.setup(*node.app);
  }
  for (const auto& child : spec.subcommands) {
    node.children.push_back(add_command(*node.app, child));
  }
  if (!node.runner && !node.children.empty()) {
    node.app->require_subcommand(1);
  }
  return node;
}

// The runner of the deepest command given on the command line, or null.
const Runner* chosen_runner(const CommandNode& node) {
  if (!node.app->parsed()) {
    return nullptr;
  }
  for (const auto& child : node.children) {
    if (const Runner* runner = chosen_runner(child)) {
      return runner;
    }
  }
  return node.runner ? &node.runner : nullptr;
}

// `envlock help [COMMAND...]`: the help of the command named, or the list of commands.
int run_help(const CLI::App& top, const std::vector<std::string>& words) {
  const CLI::App* command = &top;
  for (const auto& word : words) {
    const CLI::App* next = nullptr;
    for (const CLI::App* sub : command->get_subcommands({})) {
      if (sub->get_name() == word) {
        next = sub;
      }
    }
    if (next == nullptr) {
      std::cerr << cmdline::unknown_command_message(*command, word) << "\n";
      return static_cast<int>(ExitCode::usage);
    }
    command = next;
  }
  std::cout << cmdline::help_text(*command) << std::flush;
  return std::cout ? 0 : static_cast<int>(ExitCode::environment);
}

} // namespace

int run_main(int argc, char** argv) {
  CLI::App app{"envlock: reproducible, checkable GPU training environments", "envlock"};
  cmdline::set_up_program(app, "envlock help lock", "docs/manual/README.md");
  app.require_subcommand(1);
  app.fallthrough(false);

  std::vector<CommandNode> nodes;
  for (const auto& spec : commands()) {
    nodes.push_back(add_command(app, spec));
  }
  std::vector<std::string> help_words;
  CLI::App* help = app.add_subcommand("help", "Show the commands, or the help of one");
  help->add_option("command", help_words, "The command (and subcommand) to show the help of")
      ->type_name("COMMAND");
  cmdline::set_footer(*help, "envlock help fleet verify", "docs/manual/README.md");
  // `envlock version`, as git, docker and uv have it: the --version line.
  CLI::App* version = app.add_subcommand("version", "Show envlock's version (as --version)");

  if (const auto exit_code = cmdline::parse(app, argc, argv)) {
    return *exit_code;
  }
  if (help->parsed()) {
    return run_help(app, help_words);
  }
  if (version->parsed()) {
    std::cout << app.get_name() << " " << ENVLOCK_VERSION << "\n";
    return 0;
  }

  util::install_interrupt_handlers();
  try {
    for (const auto& command : nodes) {
      if (const Runner* runner = chosen_runner(command)) {
        Result<ExitCode> result = (*runner)();
        std::cout << std::flush;
        if (!result) {
          std::cerr << "envlock: error: " << result.error().message << "\n";
          return util::exit_after(static_cast<int>(result.error().code), true, "envlock");
        }
        return util::exit_after(static_cast<int>(*result), false, "envlock");
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "envlock: internal error: " << e.what() << "\n";
    return util::exit_after(static_cast<int>(ExitCode::environment), true, "envlock");
  }
  return static_cast<int>(ExitCode::usage);
}

} // namespace envlock::cli
