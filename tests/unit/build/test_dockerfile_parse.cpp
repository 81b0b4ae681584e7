#include "build/dockerfile_parse.hpp"

#include <doctest/doctest.h>
#include <string>
#include <vector>

using namespace envlock;
using build::ScriptLine;

TEST_SUITE_BEGIN("dockerfile_parse");

TEST_CASE("parse_dockerfile joins continuations, skips comments, keeps the first line") {
  const auto instructions =
      build::parse_dockerfile("# c\nrun a \\\n  # inside\n  b\n\nFROM x as y\n");
  REQUIRE(instructions.size() == 2);
  CHECK(instructions[0].line == 2);
  CHECK(instructions[0].end_line == 4);
  CHECK(instructions[0].keyword == "RUN");
  CHECK(instructions[0].arguments == "a b");
  CHECK(instructions[0].script.empty());
  CHECK(instructions[1].line == 6);
  CHECK(instructions[1].end_line == 6);
  CHECK(build::parse_from(instructions[1].arguments).stage == "y");
}

TEST_CASE("a <<EOF heredoc: its body is the script, comments and blank lines dropped") {
  const auto instructions = build::parse_dockerfile("FROM x\n"
                                                    "RUN <<EOF\n"
                                                    "apt-get update\n"
                                                    "\n"
                                                    "  # a comment\n"
                                                    "  apt-get install -y a\n"
                                                    "EOF\n"
                                                    "ENV A=1\n");
  REQUIRE(instructions.size() == 3);
  CHECK(instructions[1].arguments == "<<EOF");
  CHECK(instructions[1].line == 2);
  CHECK(instructions[1].end_line == 7);
  CHECK(instructions[1].script ==
        std::vector<ScriptLine>{{3, "apt-get update"}, {6, "apt-get install -y a"}});
  CHECK(instructions[2].keyword == "ENV");
  CHECK(instructions[2].line == 8);
}

TEST_CASE("a <<\"EOF\" heredoc after RUN flags on continuation lines") {
  const auto instructions =
      build::parse_dockerfile("RUN --mount=type=cache,target=/root/.cache/uv \\\n"
                              "    bash -ex <<\"EOF\"\n"
                              "    uv sync --only-group build\n"
                              "    echo \"EOF\"\n"
                              "EOF\n");
  REQUIRE(instructions.size() == 1);
  CHECK(instructions[0].arguments ==
        "--mount=type=cache,target=/root/.cache/uv bash -ex <<\"EOF\"");
  CHECK(instructions[0].end_line == 5);
  CHECK(instructions[0].script ==
        std::vector<ScriptLine>{{3, "uv sync --only-group build"}, {4, "echo \"EOF\""}});
}

TEST_CASE("<<-EOF strips leading tabs, also before the terminator; <<EOF does not") {
  const auto chomped = build::parse_dockerfile("RUN <<-EOF\n\t\techo a\n\tEOF\nENV A=1\n");
  REQUIRE(chomped.size() == 2);
  CHECK(chomped[0].script == std::vector<ScriptLine>{{2, "echo a"}});
  CHECK(chomped[0].end_line == 3);
  const auto plain = build::parse_dockerfile("RUN <<EOF\necho a\n\tEOF\nEOF\nENV A=1\n");
  REQUIRE(plain.size() == 2);
  CHECK(plain[0].script == std::vector<ScriptLine>{{2, "echo a"}, {3, "EOF"}});
  CHECK(plain[0].end_line == 4);
}

TEST_CASE("two heredocs are read one after the other") {
  const auto instructions = build::parse_dockerfile("COPY <<A <<'B' /dst/\n"
                                                    "one\n"
                                                    "A\n"
                                                    "two\n"
                                                    "B\n"
                                                    "RUN x\n");
  REQUIRE(instructions.size() == 2);
  CHECK(instructions[0].script == std::vector<ScriptLine>{{2, "one"}, {4, "two"}});
  CHECK(instructions[0].end_line == 5);
  CHECK(instructions[1].line == 6);
}

TEST_CASE("a continuation inside a body is joined and keeps the line it starts on") {
  const auto instructions = build::parse_dockerfile("RUN bash <<EOF\n"
                                                    "uv sync --extra dev \\\n"
                                                    "    --locked \\\n"
                                                    "    --no-install-package torch\n"
                                                    "echo done\n"
                                                    "EOF\n");
  REQUIRE(instructions.size() == 1);
  CHECK(instructions[0].script ==
        std::vector<ScriptLine>{{2, "uv sync --extra dev --locked --no-install-package torch"},
                                {5, "echo done"}});
}

TEST_CASE("a missing terminator: the body runs to the end of the file") {
  const auto instructions = build::parse_dockerfile("RUN <<EOF\necho a\nRUN b \\\n  c\n");
  REQUIRE(instructions.size() == 1);
  CHECK(instructions[0].script == std::vector<ScriptLine>{{2, "echo a"}, {3, "RUN b c"}});
  CHECK(instructions[0].end_line == 4);
}

TEST_CASE("CRLF line ends") {
  const auto instructions = build::parse_dockerfile(
      "FROM x\r\nRUN a \\\r\n  b\r\nRUN <<EOF\r\necho a \\\r\n  b\r\nEOF\r\nENV A=1\r\n");
  REQUIRE(instructions.size() == 4);
  CHECK(instructions[0].arguments == "x");
  CHECK(instructions[1].arguments == "a b");
  CHECK(instructions[1].end_line == 3);
  CHECK(instructions[2].script == std::vector<ScriptLine>{{5, "echo a b"}});
  CHECK(instructions[2].end_line == 7);
  CHECK(instructions[3].line == 8);
  CHECK(instructions[3].arguments == "A=1");
}

TEST_CASE("not heredocs: shifts, here-strings, <<EOF glued to a word, other instructions") {
  for (const std::string text :
       {"RUN echo $((1<<3))\nEOF\n", "RUN cat <<<word\nEOF\n", "RUN cat<<EOF\nEOF\n",
        "LABEL a=<<EOF\nEOF\n", "RUN echo '<<EOF'\nEOF\n"}) {
    CAPTURE(text);
    const auto instructions = build::parse_dockerfile(text);
    REQUIRE(instructions.size() == 2);
    CHECK(instructions[0].script.empty());
    CHECK(instructions[0].end_line == 1);
  }
  const auto with_fd = build::parse_dockerfile("RUN 3<<EOF cat /dev/fd/3\nx\nEOF\n");
  REQUIRE(with_fd.size() == 1);
  CHECK(with_fd[0].script == std::vector<ScriptLine>{{2, "x"}});
}

TEST_CASE("shell_commands splits at operators, removes quotes, drops comments") {
  const auto commands = build::shell_commands("a 'b c' && d \"e\\\"f\" | g;h");
  REQUIRE(commands.size() == 4);
  CHECK(commands[0] == std::vector<std::string>{"a", "b c"});
  CHECK(commands[1] == std::vector<std::string>{"d", "e\"f"});
  CHECK(commands[3] == std::vector<std::string>{"h"});
  CHECK(build::shell_commands("apt-get install -y a=1 # b && c") ==
        std::vector<std::vector<std::string>>{{"apt-get", "install", "-y", "a=1"}});
  CHECK(build::shell_commands("echo a#b '#c' ${#x}") ==
        std::vector<std::vector<std::string>>{{"echo", "a#b", "#c", "${#x}"}});
}

TEST_SUITE_END();
