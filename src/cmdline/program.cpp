#include "cmdline/program.hpp"

#include "cmdline/help.hpp"
#include "cmdline/usage_error.hpp"

#include <iostream>
#include <memory>

namespace envlock::cmdline {

namespace {

constexpr int k_usage = 2;

// Whether the command line named a command that needs one of its own and stopped there.
bool stopped_at_group(const CLI::App& app) {
  const auto chain = parsed_chain(app);
  for (const CLI::App* command : chain) {
    if (!command->remaining(false).empty()) {
      return false;
    }
  }
  const CLI::App* last = chain.back();
  return last->get_require_subcommand_min() > 0 && last->get_subcommands().empty();
}

} // namespace

void set_up_program(CLI::App& app, const std::string& example, const std::string& manual) {
  app.formatter(std::make_shared<HelpFormatter>());
  app.set_help_flag("-h,--help", "Print this help and exit");
  app.set_version_flag("--version", app.get_name() + " " + ENVLOCK_VERSION,
                       "Print the version and exit");
  set_footer(app, example, manual);
}

std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::cout << app.help() << std::flush;
    return 0;
  } catch (const CLI::CallForVersion& e) {
    std::cout << e.what() << "\n" << std::flush;
    return 0;
  } catch (const CLI::ParseError& e) {
    if (stopped_at_group(app)) {
      std::cout << help_text(*parsed_chain(app).back()) << std::flush;
      return k_usage;
    }
    std::cerr << usage_message(app, e) << "\n";
    return k_usage;
  }
  return std::nullopt;
}

} // namespace envlock::cmdline
