#include "build/lint/install_rules.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <cctype>
#include <set>

namespace envlock::build::lint_rules {

namespace {

bool is_commit(const std::string& word) {
  return word.size() == 40 && util::is_hex(word);
}

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// The words after the program's subcommand, and the subcommand: `git -C dir checkout main`
// gives "checkout" and {"main"}. Global options before the subcommand are skipped; those in
// `valued` take the next word.
std::string subcommand(const Words& words, const std::set<std::string>& valued, Words& rest) {
  std::size_t i = program_index(words) + 1;
  while (i < words.size() && words[i].starts_with('-')) {
    i += valued.count(words[i]) != 0 ? 2 : 1;
  }
  if (i >= words.size()) {
    return "";
  }
  rest.assign(words.begin() + static_cast<std::ptrdiff_t>(i) + 1, words.end());
  return words[i];
}

// The words of `args` that are not options or option values (`valued` take the next word).
Words operands(const Words& args, const std::set<std::string>& valued) {
  Words out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& w = args[i];
    if (w == "--") {
      break;
    }
    if (w.starts_with('-')) {
      i += valued.count(w) != 0 ? 1 : 0;
      continue;
    }
    out.push_back(w);
  }
  return out;
}

void add_install_finding(std::vector<Finding>& out, int line, const std::string& rule,
                         std::string message) {
  out.push_back(Finding{line, Severity::error, std::move(message), rule});
}

// `git clone`'s options that take the next word as their value.
const std::set<std::string>& clone_valued() {
  static const std::set<std::string> options{"-b",
                                             "--branch",
                                             "-o",
                                             "--origin",
                                             "-c",
                                             "--config",
                                             "--depth",
                                             "--reference",
                                             "--separate-git-dir",
                                             "-u",
                                             "--upload-pack",
                                             "-j",
                                             "--jobs",
                                             "--filter",
                                             "--shallow-since",
                                             "--shallow-exclude",
                                             "--template",
                                             "--server-option",
                                             "--bundle-uri",
                                             "--reference-if-able"};
  return options;
}

// "git clone [--branch B] URL", as the message shows it.
std::string shown_clone(const Words& args) {
  std::string branch;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if ((args[i] == "-b" || args[i] == "--branch") && i + 1 < args.size()) {
      branch = args[i + 1];
    } else if (args[i].starts_with("--branch=")) {
      branch = args[i].substr(9);
    }
  }
  const Words urls = operands(args, clone_valued());
  return "git clone" + (branch.empty() ? "" : " --branch " + branch) +
         (urls.empty() ? "" : " " + urls.front());
}

// A git checkout's effect: it pins (a commit), floats (a branch or tag), or neither (files, a
// new branch at HEAD).
enum class CheckoutKind { pins, floats, neither };

CheckoutKind checkout_kind(const Words& args, const GitState& state, std::string& ref) {
  if (std::find(args.begin(), args.end(), "--") != args.end()) {
    return CheckoutKind::neither; // files from a tree, HEAD stays
  }
  const Words refs = operands(args, {"-b", "-B", "--orphan", "-c", "-C"});
  if (refs.empty()) {
    return CheckoutKind::neither;
  }
  ref = refs.front();
  if (is_commit(ref) || (ref == "FETCH_HEAD" && state.fetched_commit)) {
    return CheckoutKind::pins;
  }
  return CheckoutKind::floats;
}

bool is_conda_pin(const std::string& spec) {
  // NAME=VERSION or NAME==VERSION (conda's match specs, channel::NAME too), or "NAME VERSION";
  // ranges (>=, <, !=, ~=, *) are not pins.
  const auto eq = spec.find('=');
  const auto space = spec.find(' ');
  std::string version;
  if (eq != std::string::npos && eq > 0) {
    const char before = spec[eq - 1];
    if (before == '<' || before == '>' || before == '!' || before == '~') {
      return false;
    }
    version = spec.substr(spec[eq + 1] == '=' ? eq + 2 : eq + 1);
  } else if (space != std::string::npos) {
    version = std::string(util::trim(spec.substr(space + 1)));
  }
  return !version.empty() && is_digit(version.front()) &&
         version.find_first_of("*<>,|") == std::string::npos;
}

bool is_package_name(const std::string& word) {
  return !word.empty() && word.find("://") == std::string::npos && !word.starts_with('.') &&
         !word.starts_with('/') && !word.starts_with('~') && !word.starts_with('$') &&
         !word.ends_with(".tar.bz2") && !word.ends_with(".conda") && !word.ends_with(".tgz") &&
         !word.ends_with(".tar.gz");
}

// MAJOR.MINOR.PATCH with an optional -prerelease or +build: npm's exact version.
bool is_exact_semver(std::string_view v) {
  int parts = 0;
  std::size_t i = 0;
  while (parts < 3) {
    const std::size_t start = i;
    while (i < v.size() && is_digit(v[i])) {
      ++i;
    }
    if (i == start) {
      return false;
    }
    ++parts;
    if (parts < 3) {
      if (i >= v.size() || v[i] != '.') {
        return false;
      }
      ++i;
    }
  }
  return i == v.size() || v[i] == '-' || v[i] == '+';
}

bool is_npm_pin(const std::string& spec) {
  const auto at = spec.rfind('@');
  return at != std::string::npos && at > 0 && is_exact_semver(spec.substr(at + 1));
}

} // namespace

void check_git(const Commands& commands, GitState& state, std::vector<Finding>& out) {
  for (const auto& [line, words] : commands) {
    if (program(words) != "git") {
      continue;
    }
    Words args;
    const std::string command =
        subcommand(words, {"-C", "-c", "--git-dir", "--work-tree", "--namespace"}, args);
    if (command == "clone") {
      state.clones.push_back({line, shown_clone(args)});
    } else if (command == "fetch") {
      const Words refs = operands(args, {"--depth", "-j", "--jobs", "--filter", "-o"});
      state.fetched_commit = std::any_of(refs.begin(), refs.end(), is_commit);
    } else if (command == "checkout" || command == "switch" || command == "reset") {
      std::string ref;
      const CheckoutKind kind = checkout_kind(args, state, ref);
      if (kind == CheckoutKind::pins) {
        if (!state.clones.empty()) {
          state.clones.pop_back();
        }
      } else if (kind == CheckoutKind::floats && command != "reset") {
        add_install_finding(
            out, line, "git-checkout-not-pinned",
            "git " + command + " " + ref +
                " does not pin a commit (write git checkout COMMIT, its 40 hex digits)");
      }
    }
  }
}

void flush_git(GitState& state, std::vector<Finding>& out) {
  for (const auto& clone : state.clones) {
    add_install_finding(
        out, clone.line, "git-clone-not-pinned",
        clone.shown +
            " is not pinned to a commit (no git checkout COMMIT, 40 hex digits, follows it in "
            "this stage)");
  }
  state = GitState{};
}

void check_conda(const Commands& commands, std::vector<Finding>& out) {
  static const std::set<std::string> valued{
      "-n",       "--name",        "-p",         "--prefix", "-c",        "--channel", "--file",
      "--solver", "--repodata-fn", "--platform", "--subdir", "--revision"};
  for (const auto& [line, words] : commands) {
    const std::string p = program(words);
    if (p != "conda" && p != "mamba" && p != "micromamba") {
      continue;
    }
    Words args;
    const std::string command = subcommand(words, valued, args);
    if (command != "install" && command != "create") {
      continue;
    }
    std::vector<std::string> floating;
    for (const auto& spec : operands(args, valued)) {
      if (is_package_name(spec) && !is_conda_pin(spec)) {
        floating.push_back(spec);
      }
    }
    if (!floating.empty()) {
      add_install_finding(out, line, "conda-not-pinned",
                          p + " " + command + " without versions: " + util::join(floating, ", ") +
                              " (write NAME=VERSION)");
    }
  }
}

void check_npm(const Commands& commands, std::vector<Finding>& out) {
  static const std::set<std::string> valued{"--prefix", "--registry",   "--location",
                                            "--cache",  "--userconfig", "--tag"};
  for (const auto& [line, words] : commands) {
    if (program(words) != "npm") {
      continue;
    }
    Words args;
    const std::string command = subcommand(words, valued, args);
    if (command != "install" && command != "i" && command != "add") {
      continue;
    }
    const bool global =
        std::any_of(words.begin(), words.end(),
                    [](const std::string& w) {
                      return w == "-g" || w == "--global" || w == "--location=global";
                    }) ||
        std::adjacent_find(words.begin(), words.end(), [](const auto& a, const auto& b) {
          return a == "--location" && b == "global";
        }) != words.end();
    if (!global) {
      continue;
    }
    std::vector<std::string> floating;
    for (const auto& spec : operands(args, valued)) {
      if (is_package_name(spec) && !is_npm_pin(spec)) {
        floating.push_back(spec);
      }
    }
    if (!floating.empty()) {
      add_install_finding(out, line, "npm-not-pinned",
                          "npm " + command + " -g without exact versions: " +
                              util::join(floating, ", ") + " (write NAME@VERSION)");
    }
  }
}

} // namespace envlock::build::lint_rules
