#include "../testutil.hpp"
#include "cmdline/colour.hpp"
#include "cmdline/output.hpp"
#include "util/fs.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <string>
#include <unistd.h>
#include <vector>

using namespace envlock;

namespace {

// Parses `words` into a program with one command that has --format, -o and the old --json.
struct OutputFixture {
  CLI::App top{"", "envlock"};
  CLI::App* node = nullptr;
  std::string format;
  std::string output;
  OutputFixture() {
    node = top.add_subcommand("node", "");
    cmdline::add_format_option(*node, format, {"text", "md", "json"}, "default: text");
    cmdline::add_output_option(*node, output, "Where");
    cmdline::add_old_flag(*node, "--json", "--format json", [this] { format = "json"; });
  }
  // "" when it parses, else CLI11's message.
  std::string parse(std::vector<std::string> words) {
    std::vector<char*> argv;
    std::string program = "envlock";
    argv.push_back(program.data());
    for (auto& word : words) {
      argv.push_back(word.data());
    }
    try {
      top.parse(static_cast<int>(argv.size()), argv.data());
    } catch (const CLI::ParseError& e) {
      return e.what();
    }
    return "";
  }
};

} // namespace

TEST_SUITE("cmdline.output") {
  TEST_CASE("--format: the formats given, markdown for md, another word refused") {
    OutputFixture a;
    CHECK(a.parse({"node", "--format", "markdown", "-o", "-"}).empty());
    CHECK(a.format == "md");
    CHECK(a.output == "-");
    OutputFixture b;
    CHECK(b.parse({"node", "--format", "yaml"}) == "--format: 'yaml' is not one of text, md, json");
  }

  TEST_CASE("the old spelling sets the new option") {
    OutputFixture a;
    CHECK(a.parse({"node", "--json"}).empty());
    CHECK(a.format == "json");
  }

  TEST_CASE("the note of an old spelling names the command and both spellings") {
    CLI::App top{"", "envlock"};
    CLI::App* diff = top.add_subcommand("diff", "");
    CHECK(cmdline::old_spelling_note(*diff, "--json", "--format json") ==
          "envlock: note: 'diff --json' is now 'diff --format json'; the old spelling goes in the "
          "next release");
    CLI::App verifier{"", "envlock-verify"};
    CHECK(cmdline::old_spelling_note(verifier, "--json FILE", "--format json -o FILE") ==
          "envlock-verify: note: '--json FILE' is now '--format json -o FILE'; the old spelling "
          "goes in the next release");
  }

  TEST_CASE("format_for_extension: known extensions of the command's formats only") {
    const std::vector<std::string> formats{"text", "md", "json"};
    CHECK(cmdline::format_for_extension("r.json", formats) == "json");
    CHECK(cmdline::format_for_extension("R.MD", formats) == "md");
    CHECK(cmdline::format_for_extension("r.markdown", formats) == "md");
    CHECK(cmdline::format_for_extension("r.txt", formats) == "text");
    CHECK(!cmdline::format_for_extension("r.html", formats));
    CHECK(!cmdline::format_for_extension("r.sarif", formats));
    CHECK(cmdline::format_for_extension("lint.sarif", {"text", "json", "sarif"}) == "sarif");
    CHECK(cmdline::format_for_extension("r.xml", {"text", "junit"}) == "junit");
    CHECK(!cmdline::format_for_extension("-", formats));
    CHECK(!cmdline::format_for_extension("", formats));
    CHECK(!cmdline::format_for_extension("report", formats));
  }

  TEST_CASE("write_output: a file is replaced, /dev/null written through") {
    const auto tmp = test::temp_dir();
    const auto path = tmp.path() / "out.txt";
    REQUIRE(cmdline::write_output(path.string(), "one\n").has_value());
    REQUIRE(cmdline::write_output(path.string(), "two\n").has_value());
    CHECK(util::read_file(path).value_or("") == "two\n");
    CHECK(cmdline::write_output("/dev/null", "x").has_value());
    const auto folder = cmdline::write_output(tmp.path().string(), "x");
    REQUIRE(!folder.has_value());
    CHECK(folder.error().code == ExitCode::usage);
  }
}

TEST_SUITE("cmdline.colour") {
  TEST_CASE("always and never win; auto needs a terminal and no NO_COLOR") {
    const int not_a_terminal = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
    REQUIRE(not_a_terminal >= 0);
    CHECK(cmdline::use_colour(cmdline::ColourWhen::always, not_a_terminal, "1"));
    CHECK(!cmdline::use_colour(cmdline::ColourWhen::never, not_a_terminal, nullptr));
    CHECK(!cmdline::use_colour(cmdline::ColourWhen::automatic, not_a_terminal, nullptr));
    ::close(not_a_terminal);
    // NO_COLOR, set and not empty, turns auto off before the terminal is even asked about.
    CHECK(!cmdline::use_colour(cmdline::ColourWhen::automatic, -1, "1"));
  }

  TEST_CASE("--color takes auto, always or never") {
    CLI::App app{"", "envlock"};
    cmdline::ColourWhen when = cmdline::ColourWhen::automatic;
    cmdline::add_colour_option(app, when);
    std::vector<std::string> words{"envlock", "--color=never"};
    std::vector<char*> argv{words[0].data(), words[1].data()};
    app.parse(2, argv.data());
    CHECK(when == cmdline::ColourWhen::never);
    CLI::App bad{"", "envlock"};
    cmdline::add_colour_option(bad, when);
    std::vector<std::string> bad_words{"envlock", "--color=sometimes"};
    std::vector<char*> bad_argv{bad_words[0].data(), bad_words[1].data()};
    CHECK_THROWS_WITH(bad.parse(2, bad_argv.data()),
                      "--color: 'sometimes' is not one of auto, always, never");
  }
}
