// The rules of `envlock lint`, one function each, over one instruction's shell commands; lint.cpp
// runs them in order. Internal to the lint module.
#pragma once

#include "build/dockerfile_parse.hpp"
#include "build/lint.hpp"

#include <map>
#include <string>
#include <vector>

namespace envlock::build::lint_rules {

using Commands = std::vector<std::vector<std::string>>;

// FROM without @sha256: (after ARG defaults are substituted); `stages` are earlier AS names.
void check_from(const Instruction& from, const std::map<std::string, std::string>& args,
                const std::vector<std::string>& stages, std::vector<Finding>& out);

// curl/wget in a RUN without a checksum check in the same RUN; ADD of a URL without --checksum.
void check_downloads(const Instruction& instruction, const Commands& commands,
                     std::vector<Finding>& out);

// `uv sync` / `uv pip install` without --locked or --frozen (unless UV_LOCKED/UV_FROZEN is set).
// Returns the lines of the unlocked syncs, so that a later locked sync can be reported.
void check_uv(const Instruction& instruction, const Commands& commands, bool env_locked,
              std::vector<int>& unlocked_syncs, std::vector<Finding>& out);

// `pip install NAME` without ==VERSION (also pip3 and python -m pip).
void check_pip(const Instruction& instruction, const Commands& commands, std::vector<Finding>& out);

// `apt-get install PACKAGE` without =VERSION (a warning).
void check_apt(const Instruction& instruction, const Commands& commands, std::vector<Finding>& out);

} // namespace envlock::build::lint_rules
