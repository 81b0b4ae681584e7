// Help as people read it: `--ca-file FILE`, not `--ca-file PATH:FILE`; `--registry-timeout
// SECONDS`, not `SECONDS:FLOAT in [1 - 3600]`. A CLI11 formatter that shows each option's
// metavariable without the validators' descriptions, positionals in capitals, the commands one
// line each, and the footer every command carries: one example and its manual page.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace envlock::cmdline {

class HelpFormatter : public CLI::Formatter {
public:
  HelpFormatter();
  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override;
  std::string make_usage(const CLI::App* app, std::string name) const override;
  std::string make_subcommands(const CLI::App* app, CLI::AppFormatMode mode) const override;
  std::string make_option_name(const CLI::Option* opt, bool is_positional) const override;
  std::string make_option_opts(const CLI::Option* opt) const override;
  std::string make_option_desc(const CLI::Option* opt) const override;
};

// The word a person reads after an option: its type name without what CLI11's validators append
// (":FILE", ":FLOAT in [1 - 3600]"); for an option that names no type of its own ("TEXT",
// "INT", "FLOAT"): FILE, DIR or PATH when a check says so, else "VALUE" (or "N", "NUMBER").
// Empty for a flag.
std::string metavariable(const CLI::Option& option);

// "docs/manual/lock.md" as the running executable can reach it: PREFIX/share/doc/envlock/
// manual/lock.md when it runs from PREFIX/bin of an installed copy that has the page, else
// `manual` as given (the source tree's path).
std::string manual_location(const std::string& manual);

// Sets the help footer of `app`: "Example:" with `example`, then "Manual: MANUAL" (where
// manual_location finds it).
void set_footer(CLI::App& app, const std::string& example, const std::string& manual);

// The help of `app` (a command of `top`, or `top` itself) under its full name ("envlock fleet
// verify"), as `--help` prints it.
std::string help_text(const CLI::App& app);

// "envlock fleet verify": the names from the top app down to `app`.
std::string command_path(const CLI::App& app);

} // namespace envlock::cmdline
