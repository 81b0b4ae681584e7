#include "cmdline/output.hpp"

#include "cmdline/help.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

namespace envlock::cmdline {

namespace {

// The name a format word stands for.
std::string canonical_format(const std::string& word) {
  if (word == "markdown") {
    return "md";
  }
  if (word == "txt") {
    return "text";
  }
  return word;
}

bool contains(const std::vector<std::string>& list, const std::string& word) {
  return std::find(list.begin(), list.end(), word) != list.end();
}

} // namespace

CLI::Option* add_format_option(CLI::App& app, std::string& format,
                               const std::vector<std::string>& formats,
                               const std::string& default_text) {
  const std::string list = util::join(formats, ", ");
  return app.add_option("--format", format, "The format: " + list + " (" + default_text + ")")
      ->transform(CLI::Validator(
          [formats, list](std::string& word) -> std::string {
            word = canonical_format(word);
            return contains(formats, word) ? "" : "'" + word + "' is not one of " + list;
          },
          ""))
      ->type_name("FORMAT");
}

CLI::Option* add_output_option(CLI::App& app, std::string& output, const std::string& help) {
  return app.add_option("-o,--output", output, help)->type_name("FILE");
}

std::optional<std::string> format_for_extension(const std::string& output,
                                                const std::vector<std::string>& formats) {
  static const std::map<std::string, std::string> k_extensions{
      {".json", "json"}, {".md", "md"},    {".markdown", "md"}, {".html", "html"},
      {".htm", "html"},  {".txt", "text"}, {".sarif", "sarif"}, {".xml", "junit"}};
  if (output.empty() || output == "-") {
    return std::nullopt;
  }
  const auto it =
      k_extensions.find(util::to_lower(std::filesystem::path(output).extension().string()));
  if (it == k_extensions.end() || !contains(formats, it->second)) {
    return std::nullopt;
  }
  return it->second;
}

std::string old_spelling_note(const CLI::App& app, const std::string& old_spelling,
                              const std::string& new_spelling) {
  const CLI::App* top = &app;
  while (top->get_parent() != nullptr) {
    top = top->get_parent();
  }
  std::string command = command_path(app).substr(top->get_name().size());
  if (!command.empty()) {
    command = command.substr(1) + " "; // without the program's name and its space
  }
  return top->get_name() + ": note: '" + command + old_spelling + "' is now '" + command +
         new_spelling + "'; the old spelling goes in the next release";
}

CLI::Option* add_old_flag(CLI::App& app, const std::string& name, const std::string& new_spelling,
                          std::function<void()> apply) {
  return app
      .add_flag_function(
          name,
          [&app, name, new_spelling, apply = std::move(apply)](std::int64_t /*count*/) {
            std::cerr << old_spelling_note(app, name, new_spelling) << "\n";
            apply();
          },
          "Old spelling of " + new_spelling)
      ->group("");
}

CLI::Option* add_old_option(CLI::App& app, const std::string& name, const std::string& metavariable,
                            const std::string& new_spelling,
                            std::function<void(const std::string&)> apply) {
  return app
      .add_option_function<std::string>(
          name,
          [&app, name, metavariable, new_spelling,
           apply = std::move(apply)](const std::string& value) {
            std::cerr << old_spelling_note(app, name + " " + metavariable, new_spelling) << "\n";
            apply(value);
          },
          "Old spelling of " + new_spelling)
      ->type_name(metavariable)
      ->group("");
}

Status write_output(const std::string& output, std::string_view text) {
  std::cout.flush();
  return util::write_file_atomic(output.empty() ? "-" : output, text);
}

} // namespace envlock::cmdline
