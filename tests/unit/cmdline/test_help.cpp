#include "cmdline/help.hpp"
#include "cmdline/program.hpp"

#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace envlock;

namespace {

// A small program with the kinds of options the real commands have: a file checked by CLI11, a
// number in a range, a flag, a repeatable option and a positional.
struct HelpFixtureOptions {
  std::string ca_file;
  double timeout = 30;
  bool check = false;
  std::vector<std::string> hosts;
  std::vector<std::string> files;
};

void build_help_fixture(CLI::App& top, HelpFixtureOptions& o) {
  cmdline::set_up_program(top, "tool help lock", "docs/manual/README.md");
  top.require_subcommand(1);
  CLI::App* lock = top.add_subcommand("lock", "Resolve the manifest");
  lock->add_option("--ca-file", o.ca_file, "Trust these CAs")->check(CLI::ExistingFile);
  lock->add_option("--timeout", o.timeout, "Give up after this long")
      ->check(CLI::Range(1.0, 3600.0))
      ->type_name("SECONDS");
  lock->add_flag("--check", o.check, "Report drift");
  lock->add_option("--insecure-registry", o.hosts, "Plain HTTP here")->type_name("HOST[:PORT]");
  lock->add_option("files", o.files, "The inputs");
  cmdline::set_footer(*lock, "tool lock --check", "docs/manual/lock.md");
  CLI::App* lint = top.add_subcommand("lint", "Report problems");
  cmdline::set_footer(*lint, "tool lint Dockerfile", "docs/manual/lint.md");
}

} // namespace

TEST_SUITE("cmdline.help") {
  TEST_CASE("metavariables without the validators' descriptions") {
    CLI::App app{"", "tool"};
    std::string text;
    int count = 0;
    double seconds = 0;
    bool flag = false;
    CHECK(cmdline::metavariable(*app.add_option("--a", text)->check(CLI::ExistingFile)) == "FILE");
    CHECK(cmdline::metavariable(*app.add_option("--a2", text)->check(CLI::ExistingDirectory)) ==
          "DIR");
    CHECK(cmdline::metavariable(*app.add_option("--a3", text)) == "VALUE");
    CHECK(cmdline::metavariable(
              *app.add_option("--b", text)->check(CLI::ExistingFile)->type_name("FILE")) == "FILE");
    CHECK(cmdline::metavariable(*app.add_option("--c", count)) == "N");
    CHECK(cmdline::metavariable(*app.add_option("--d", seconds)->check(CLI::Range(1.0, 9.0))) ==
          "NUMBER");
    CHECK(cmdline::metavariable(*app.add_option("--e", text)->type_name("HOST[:PORT]")) ==
          "HOST[:PORT]");
    CHECK(cmdline::metavariable(*app.add_flag("--f", flag)).empty());
  }

  TEST_CASE("a command's help: usage, readable metavariables, one example and its manual page") {
    CLI::App top{"tool: does things", "tool"};
    HelpFixtureOptions o;
    build_help_fixture(top, o);
    CHECK(cmdline::help_text(*top.get_subcommand("lock")) ==
          "Usage: tool lock [OPTIONS] [FILES...]\n"
          "\n"
          "Resolve the manifest\n"
          "\n"
          "Arguments:\n"
          "  FILES                       The inputs\n"
          "\n"
          "Options:\n"
          "  -h,--help                   Print this help and exit\n"
          "  --ca-file FILE              Trust these CAs\n"
          "  --timeout SECONDS           Give up after this long\n"
          "  --check                     Report drift\n"
          "  --insecure-registry HOST[:PORT] ...\n"
          "                              Plain HTTP here\n"
          "\n"
          "Example:\n"
          "  tool lock --check\n"
          "\n"
          "Manual: docs/manual/lock.md\n");
  }

  TEST_CASE("the top help lists the commands one line each") {
    CLI::App top{"tool: does things", "tool"};
    HelpFixtureOptions o;
    build_help_fixture(top, o);
    CHECK(cmdline::help_text(top) == "Usage: tool COMMAND [OPTIONS]\n"
                                     "\n"
                                     "tool: does things\n"
                                     "\n"
                                     "Commands:\n"
                                     "  lock  Resolve the manifest\n"
                                     "  lint  Report problems\n"
                                     "\n"
                                     "Options:\n"
                                     "  -h,--help                   Print this help and exit\n"
                                     "  --version                   Print the version and exit\n"
                                     "\n"
                                     "Example:\n"
                                     "  tool help lock\n"
                                     "\n"
                                     "Manual: docs/manual/README.md\n");
  }

  TEST_CASE("a group without a footer shows its commands' examples and the first manual page") {
    CLI::App top{"", "tool"};
    cmdline::set_up_program(top, "tool fleet verify", "docs/manual/README.md");
    CLI::App* fleet = top.add_subcommand("fleet", "Fleet work");
    fleet->footer("");
    cmdline::set_footer(*fleet->add_subcommand("verify", "Verify"), "tool fleet verify --nodes n1",
                        "docs/manual/fleet.md");
    cmdline::set_footer(*fleet->add_subcommand("drain-list", "Drain"), "tool fleet drain-list",
                        "docs/manual/fleet.md");
    const std::string help = cmdline::help_text(*fleet);
    CHECK(help.starts_with("Usage: tool fleet [COMMAND] [OPTIONS]\n"));
    CHECK(help.ends_with("Examples:\n"
                         "  tool fleet verify --nodes n1\n"
                         "  tool fleet drain-list\n"
                         "\n"
                         "Manual: docs/manual/fleet.md\n"));
  }

  TEST_CASE("command_path names the commands from the top down") {
    CLI::App top{"", "tool"};
    CLI::App* fleet = top.add_subcommand("fleet", "");
    CLI::App* verify = fleet->add_subcommand("verify", "");
    CHECK(cmdline::command_path(*verify) == "tool fleet verify");
    CHECK(cmdline::command_path(top) == "tool");
  }
}
