// Quoting for the two languages a rendered Dockerfile holds: Dockerfile instruction values
// (ARG, ENV, LABEL) and POSIX shell words (RUN). Both refuse line breaks, which would end the
// instruction early.
#pragma once

#include "util/result.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace envlock::build {

// `word` as one POSIX shell word of a RUN line: util::shell_quote(word, QuoteWhen::needed),
// unchanged when it holds only [A-Za-z0-9_./=:,+@%-]. Fails (exit 2) on a line break with
// "contains a line break, which a Dockerfile line cannot hold".
Result<std::string> shell_word(std::string_view word);

// The words, each a shell_word, joined by single spaces; fails like shell_word.
Result<std::string> shell_join(const std::vector<std::string>& words);

// `value` in double quotes for ARG, ENV and LABEL, with \, " and $ escaped by a backslash so
// the builder neither expands nor ends it. Fails (exit 2) on a line break.
Result<std::string> dockerfile_quote(std::string_view value);

} // namespace envlock::build
