// The rules of `envlock lint`, one function each, over one instruction's shell commands; lint.cpp
// runs them in order (install_rules.hpp has those for git, conda and npm). Internal to the lint
// module.
#pragma once

#include "build/dockerfile_images.hpp"
#include "build/dockerfile_parse.hpp"
#include "build/lint/lint.hpp"

#include <string>
#include <vector>

namespace envlock::build::lint_rules {

using Words = std::vector<std::string>;

// One simple command of a RUN, with the line it is on: the RUN's own line for its command line,
// the heredoc line for a command of its script.
struct Command {
  int line = 0;
  Words words;
};

using Commands = std::vector<Command>;

// The index of the program word: after VAR=value prefixes, `env`, `sudo` and `exec`.
std::size_t program_index(const Words& words);

// The program a command runs, without its directory: the first word after VAR=value prefixes,
// `env`, `sudo` and `exec`; "" when there is none.
std::string program(const Words& words);

// A FROM whose image is not pinned by @sha256: (stages and scratch pass), or names a build
// argument without a default.
void check_from(const FromImage& from, std::vector<Finding>& out);

// curl/wget in a RUN without a checksum check anywhere in the same RUN (`commands` are all of
// its commands, script included); ADD of a URL without --checksum.
void check_downloads(const Instruction& instruction, const Commands& commands,
                     std::vector<Finding>& out);

// `uv sync` / `uv pip install` without --locked or --frozen (unless UV_LOCKED/UV_FROZEN is set by
// ENV, as a prefix, or by an earlier `export` in the same RUN). Appends the lines of the unlocked
// syncs to `unlocked_syncs`, so that a later locked sync can be reported.
void check_uv(const Commands& commands, bool env_locked, std::vector<int>& unlocked_syncs,
              std::vector<Finding>& out);

// `pip install NAME` without ==VERSION (also pip3 and python -m pip).
void check_pip(const Commands& commands, std::vector<Finding>& out);

// `apt-get install PACKAGE` without =VERSION (a warning).
void check_apt(const Commands& commands, std::vector<Finding>& out);

} // namespace envlock::build::lint_rules
