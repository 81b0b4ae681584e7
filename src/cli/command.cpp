#include "cli/command.hpp"

#include <algorithm>
#include <exception>
#include <iostream>

namespace envlock::cli {

namespace {

std::vector<CommandSpec>& registry() {
  static std::vector<CommandSpec> commands;
  return commands;
}

// A command's app, its runner and its subcommands', as built from a CommandSpec.
struct CommandNode {
  CLI::App* app = nullptr;
  Runner runner;
  std::vector<CommandNode> children;
};

CommandNode add_command(CLI::App& parent, const CommandSpec& spec) {
  CommandNode node;
  node.app = parent.add_subcommand(spec.name, spec.description);
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

} // namespace

RegisterCommand::RegisterCommand(CommandSpec spec) {
  registry().push_back(std::move(spec));
}

std::vector<CommandSpec> registered_commands() {
  std::vector<CommandSpec> out = registry();
  std::sort(out.begin(), out.end(),
            [](const CommandSpec& a, const CommandSpec& b) { return a.name < b.name; });
  return out;
}

int run_main(int argc, char** argv) {
  CLI::App app{"envlock: reproducible, checkable GPU training environments", "envlock"};
  app.set_version_flag("--version", std::string("envlock ") + ENVLOCK_VERSION,
                       "Print the version and exit");
  app.require_subcommand(1);
  app.fallthrough(false);

  std::vector<CommandNode> commands;
  for (const auto& spec : registered_commands()) {
    commands.push_back(add_command(app, spec));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "envlock: error: " << e.what() << "\n";
    std::cerr << "Run 'envlock --help' for usage.\n";
    return static_cast<int>(ExitCode::usage);
  }

  try {
    for (const auto& command : commands) {
      if (const Runner* runner = chosen_runner(command)) {
        Result<ExitCode> result = (*runner)();
        if (!result) {
          std::cerr << "envlock: error: " << result.error().message << "\n";
          return static_cast<int>(result.error().code);
        }
        return static_cast<int>(*result);
      }
    }
  } catch (const std::exception& e) {
    std::cerr << "envlock: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::environment);
  }
  return static_cast<int>(ExitCode::usage);
}

} // namespace envlock::cli
