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

  const auto commands = registered_commands();
  std::vector<std::pair<CLI::App*, Runner>> runners;
  runners.reserve(commands.size());
  for (const auto& spec : commands) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.description);
    runners.emplace_back(sub, spec.setup(*sub));
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
    for (auto& [sub, runner] : runners) {
      if (sub->parsed()) {
        Result<ExitCode> result = runner();
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
