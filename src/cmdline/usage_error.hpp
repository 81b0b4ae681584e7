// What a command line CLI11 could not parse gets, worded as git words it, naming the command it
// was given to and pointing to that command's help:
//   envlock: unknown command 'lnit'; did you mean 'lint'?
//   envlock lock: unknown option '--chek'; did you mean '--check'? See 'envlock lock --help'.
//   envlock render: unexpected argument 'x'. See 'envlock render --help'.
//   envlock sample-data: --output is required. See 'envlock sample-data --help'.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace envlock::cmdline {

// The message (one line, no trailing newline) for `error`, thrown while `top` parsed.
std::string usage_message(const CLI::App& top, const CLI::Error& error);

// The message for a command name that `group` does not have: "envlock: unknown command 'lnit';
// did you mean 'lint'?", or "...; see 'envlock help'." without a close name.
std::string unknown_command_message(const CLI::App& group, const std::string& name);

// The commands given on the command line, from `top` down to the deepest one parsed.
std::vector<const CLI::App*> parsed_chain(const CLI::App& top);

} // namespace envlock::cmdline
