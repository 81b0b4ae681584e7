#include "cmdline/help.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <sstream>

namespace envlock::cmdline {

namespace {

constexpr std::string_view k_example = "Example:\n";
constexpr std::string_view k_examples = "Examples:\n";
constexpr std::string_view k_manual = "Manual: ";

// The type name up to the first ':' outside brackets: validators append ":FILE", ":{a,b}" or
// ":FLOAT in [1 - 3600]"; "HOST[:PORT]" keeps its own.
std::string without_validators(const std::string& type_name) {
  int depth = 0;
  for (std::size_t i = 0; i < type_name.size(); ++i) {
    const char c = type_name[i];
    if (c == '[' || c == '{') {
      ++depth;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == ':' && depth == 0) {
      return type_name.substr(0, i);
    }
  }
  return type_name;
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) {
    return c == '-' ? '_' : static_cast<char>(std::toupper(c));
  });
  return text;
}

// The example lines of a command's footer (set_footer's), without the heading.
std::vector<std::string> examples_in(const std::string& footer) {
  std::vector<std::string> out;
  std::istringstream in(footer);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line + "\n" == k_example || line + "\n" == k_examples) {
      inside = true;
    } else if (line.empty()) {
      inside = false;
    } else if (inside) {
      out.push_back(line);
    }
  }
  return out;
}

std::string manual_in(const std::string& footer) {
  const auto at = footer.find(k_manual);
  if (at == std::string::npos) {
    return "";
  }
  const auto end = footer.find('\n', at);
  return footer.substr(at + k_manual.size(),
                       end == std::string::npos ? std::string::npos : end - at - k_manual.size());
}

std::vector<const CLI::App*> named_subcommands(const CLI::App* app) {
  std::vector<const CLI::App*> out;
  for (const CLI::App* sub : app->get_subcommands({})) {
    if (!sub->get_name().empty() && !sub->get_disabled()) {
      out.push_back(sub);
    }
  }
  return out;
}

} // namespace

std::string metavariable(const CLI::Option& option) {
  if (option.get_type_size() == 0 || option.get_expected_max() == 0) {
    return ""; // a flag
  }
  const std::string type_name = option.get_type_name();
  const std::string base = without_validators(type_name);
  if (base.empty() || base == "TEXT") {
    // What CLI11's ExistingFile, ExistingDirectory and ExistingPath check says what it is.
    const std::string checked = type_name.substr(std::min(base.size() + 1, type_name.size()));
    if (checked == "FILE" || checked == "DIR") {
      return checked;
    }
    return checked.starts_with("PATH") ? "PATH" : "VALUE";
  }
  static constexpr std::array<std::string_view, 5> k_numbers = {"INT", "UINT", "INT64", "UINT64",
                                                                "CHAR"};
  if (std::find(k_numbers.begin(), k_numbers.end(), base) != k_numbers.end()) {
    return "N";
  }
  if (base == "FLOAT" || base == "NUMBER" || base == "DOUBLE") {
    return "NUMBER";
  }
  return base;
}

HelpFormatter::HelpFormatter() {
  label("Positionals", "Arguments");
}

std::string HelpFormatter::make_option_name(const CLI::Option* opt, bool is_positional) const {
  if (is_positional) {
    return upper(opt->get_name(true, false));
  }
  return opt->get_name(false, true);
}

std::string HelpFormatter::make_option_opts(const CLI::Option* opt) const {
  if (opt->get_positional() && !opt->nonpositional()) {
    return "";
  }
  const std::string meta = metavariable(*opt);
  if (meta.empty()) {
    return "";
  }
  const bool repeatable = opt->get_expected_max() >= CLI::detail::expected_max_vector_size;
  return " " + meta + (repeatable ? " ..." : "");
}

std::string HelpFormatter::make_option_desc(const CLI::Option* opt) const {
  std::string desc = opt->get_description();
  if (!opt->get_default_str().empty() && desc.find("default") == std::string::npos) {
    desc += " (default: " + opt->get_default_str() + ")";
  }
  if (opt->get_required() && !opt->get_positional()) {
    desc += " (required)";
  }
  return desc;
}

std::string HelpFormatter::make_usage(const CLI::App* app, std::string name) const {
  std::ostringstream out;
  out << "Usage: " << name;
  if (!named_subcommands(app).empty()) {
    const bool required = app->get_require_subcommand_min() > 0;
    out << (required ? " COMMAND" : " [COMMAND]");
  }
  const auto options =
      app->get_options([](const CLI::Option* opt) { return opt->nonpositional(); });
  if (!options.empty()) {
    out << " [OPTIONS]";
  }
  for (const CLI::Option* opt :
       app->get_options([](const CLI::Option* o) { return o->get_positional(); })) {
    out << " " << make_option_usage(opt);
  }
  out << "\n";
  return out.str();
}

std::string HelpFormatter::make_subcommands(const CLI::App* app,
                                            CLI::AppFormatMode /*mode*/) const {
  const auto subs = named_subcommands(app);
  if (subs.empty()) {
    return "";
  }
  std::size_t width = 0;
  for (const CLI::App* sub : subs) {
    width = std::max(width, sub->get_name().size());
  }
  std::ostringstream out;
  out << "\nCommands:\n";
  for (const CLI::App* sub : subs) {
    out << "  " << sub->get_name() << std::string(width + 2 - sub->get_name().size(), ' ')
        << sub->get_description() << "\n";
  }
  return out.str();
}

std::string HelpFormatter::make_help(const CLI::App* app, std::string name,
                                     CLI::AppFormatMode mode) const {
  std::ostringstream out;
  out << make_usage(app, name);
  if (!app->get_description().empty()) {
    out << "\n" << app->get_description() << "\n";
  }
  out << make_subcommands(app, mode);
  out << make_positionals(app);
  out << make_groups(app, mode);
  std::string footer = app->get_footer();
  if (footer.empty()) {
    // A command that only groups others: their examples, and the manual page of the first.
    std::vector<std::string> examples;
    std::string manual;
    for (const CLI::App* sub : named_subcommands(app)) {
      for (auto& example : examples_in(sub->get_footer())) {
        examples.push_back(std::move(example));
      }
      if (manual.empty()) {
        manual = manual_in(sub->get_footer());
      }
    }
    if (!examples.empty()) {
      footer = std::string(examples.size() == 1 ? k_example : k_examples);
      for (const auto& example : examples) {
        footer += example + "\n";
      }
    }
    if (!manual.empty()) {
      footer += (footer.empty() ? "" : "\n") + std::string(k_manual) + manual + "\n";
    }
  }
  if (!footer.empty()) {
    out << "\n" << footer;
    if (footer.back() != '\n') {
      out << "\n";
    }
  }
  // One blank line between sections (CLI11 ends an option group with one of its own).
  std::string text = out.str();
  for (auto at = text.find("\n\n\n"); at != std::string::npos; at = text.find("\n\n\n", at)) {
    text.erase(at, 1);
  }
  return text;
}

std::string manual_location(const std::string& manual) {
  // An installed copy (cmake --install) has no docs/ folder: the pages are in
  // PREFIX/share/doc/envlock/, beside PREFIX/bin where the executable runs from.
  constexpr std::string_view k_docs = "docs/";
  if (!manual.starts_with(k_docs)) {
    return manual;
  }
  namespace fs = std::filesystem;
  // PREFIX/share/doc/envlock, looked up once: empty when the executable is not an installed copy.
  static const fs::path k_installed_docs = [] {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    const fs::path docs = exe.parent_path().parent_path() / "share" / "doc" / "envlock";
    return !ec && fs::is_directory(docs, ec) ? docs.lexically_normal() : fs::path();
  }();
  if (k_installed_docs.empty()) {
    return manual;
  }
  std::error_code ec;
  const fs::path installed = k_installed_docs / manual.substr(k_docs.size());
  return fs::is_regular_file(installed, ec) ? installed.string() : manual;
}

void set_footer(CLI::App& app, const std::string& example, const std::string& manual) {
  app.footer(std::string(k_example) + "  " + example + "\n\n" + std::string(k_manual) +
             manual_location(manual));
}

std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* parent = app.get_parent(); parent != nullptr;
       parent = parent->get_parent()) {
    path = parent->get_name() + " " + path;
  }
  return path;
}

std::string help_text(const CLI::App& app) {
  return app.get_formatter()->make_help(&app, command_path(app), CLI::AppFormatMode::Normal);
}

} // namespace envlock::cmdline
