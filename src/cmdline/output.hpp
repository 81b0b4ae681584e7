// One meaning for --format and -o in every command (docs/manual/README.md, "Formats and
// outputs"): `--format` chooses the format of what goes out, `-o FILE` where it goes (`-o -`
// standard output; without -o, standard output or the command's documented file). Where a
// command writes several formats and --format is not given, the extension of -o's file chooses.
// The old spellings (`node --json`, `envlock-verify --json FILE`) work for one more release,
// each with a one-line note on standard error.
#pragma once

#include "util/result.hpp"

#include <CLI/CLI.hpp>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::cmdline {

// Adds --format FORMAT, one of `formats` ("text", "md", "json", "html", "junit", "sarif"), parsed
// into `format` (which must outlive the parse). "markdown" is taken for "md" and "txt" for "text";
// another word fails the parse: "--format: 'yaml' is not one of text, md, json".
// `default_text` ends the option's help ("default: text").
CLI::Option* add_format_option(CLI::App& app, std::string& format,
                               const std::vector<std::string>& formats,
                               const std::string& default_text);

// Adds -o,--output FILE, parsed into `output`.
CLI::Option* add_output_option(CLI::App& app, std::string& output, const std::string& help);

// The format among `formats` that the extension of `output` names (.json, .md/.markdown,
// .html/.htm, .txt, .sarif, .xml for junit); nothing for "", "-" or another extension.
std::optional<std::string> format_for_extension(const std::string& output,
                                                const std::vector<std::string>& formats);

// "envlock: note: 'node --json' is now 'node --format json'; the old spelling goes in the next
// release", for an option of `app` ("--json" or "--json FILE") and its new spelling.
std::string old_spelling_note(const CLI::App& app, const std::string& old_spelling,
                              const std::string& new_spelling);

// Adds the old flag `name` to `app`, hidden from the help: given, it prints old_spelling_note()
// on standard error and calls `apply`.
CLI::Option* add_old_flag(CLI::App& app, const std::string& name, const std::string& new_spelling,
                          std::function<void()> apply);

// Adds the old option `name` taking METAVARIABLE, likewise; `apply` gets its value.
CLI::Option* add_old_option(CLI::App& app, const std::string& name, const std::string& metavariable,
                            const std::string& new_spelling,
                            std::function<void(const std::string&)> apply);

// Writes `text` to `output`: standard output for "" and "-", else the file, atomically
// (util::write_file_atomic's rule for devices, FIFOs and links).
Status write_output(const std::string& output, std::string_view text);

} // namespace envlock::cmdline
