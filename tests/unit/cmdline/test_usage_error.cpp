#include "cmdline/program.hpp"
#include "cmdline/usage_error.hpp"

#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace envlock;

namespace {

// The message the command line `words` gets from a two-command program, or "" when it parses.
std::string usage_message_for(std::vector<std::string> words) {
  CLI::App top{"", "envlock"};
  cmdline::set_up_program(top, "envlock help lock", "docs/manual/README.md");
  top.require_subcommand(1);
  bool check = false;
  std::string output;
  CLI::App* lock = top.add_subcommand("lock", "Resolve");
  lock->add_flag("--check", check, "");
  lock->add_option("-o,--output", output, "")->required();
  top.add_subcommand("lint", "Lint");
  std::vector<char*> argv;
  std::string program = "envlock";
  argv.push_back(program.data());
  for (auto& word : words) {
    argv.push_back(word.data());
  }
  try {
    top.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    return cmdline::usage_message(top, e);
  }
  return "";
}

} // namespace

TEST_SUITE("cmdline.usage_error") {
  TEST_CASE("an unknown command: the closest one, or the way to the list") {
    CHECK(usage_message_for({"lnit"}) == "envlock: unknown command 'lnit'; did you mean 'lint'?");
    CHECK(usage_message_for({"zzzzzz"}) ==
          "envlock: unknown command 'zzzzzz'. See 'envlock --help'.");
  }

  TEST_CASE("an unknown option: named where it was given, pointing to that command's help") {
    CHECK(usage_message_for({"--verison"}) ==
          "envlock: unknown option '--verison'; did you mean '--version'? See 'envlock --help'.");
    CHECK(usage_message_for({"lock", "-o", "x", "--chek"}) ==
          "envlock lock: unknown option '--chek'; did you mean '--check'? See 'envlock lock "
          "--help'.");
    CHECK(usage_message_for({"lock", "-o", "x", "--chek=1"}) ==
          "envlock lock: unknown option '--chek'; did you mean '--check'? See 'envlock lock "
          "--help'.");
  }

  TEST_CASE("an extra argument and a missing option") {
    CHECK(usage_message_for({"lock", "-o", "x", "extra"}) ==
          "envlock lock: unexpected argument 'extra'. See 'envlock lock --help'.");
    CHECK(usage_message_for({"lock"}) ==
          "envlock lock: --output is required. See 'envlock lock --help'.");
  }

  TEST_CASE("unknown_command_message for a group") {
    CLI::App top{"", "envlock"};
    CLI::App* fleet = top.add_subcommand("fleet", "");
    fleet->add_subcommand("verify", "");
    fleet->add_subcommand("drain-list", "");
    CHECK(cmdline::unknown_command_message(*fleet, "verfy") ==
          "envlock fleet: unknown command 'verfy'; did you mean 'verify'?");
  }
}
