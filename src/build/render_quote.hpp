// Quoting for the two languages a rendered Dockerfile holds: Dockerfile instruction values
// (ARG, ENV, LABEL) and POSIX shell words (RUN). Both refuse line breaks, which would end the
// instruction early.
#pragma once

#include "util/result.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace envlock::build {

// `word` as one POSIX shell word: unchanged when it holds only [A-Za-z0-9_./=:,+@%-], else in
// single quotes ('it'\''s'). The empty word becomes ''. Fails (exit 2) on a line break with
// "contains a line break, which a Dockerfile line cannot hold".
Result<std::string> shell_quote(std::string_view word);

// The words shell-quoted and joined by single spaces; fails like shell_quote.
Result<std::string> shell_join(const std::vector<std::string>& words);

// `value` in double quotes for ARG, ENV and LABEL, with \, " and $ escaped by a backslash so
// the builder neither expands nor ends it. Fails (exit 2) on a line break.
Result<std::string> dockerfile_quote(std::string_view value);

} // namespace envlock::build
