#include "build/lint_rules.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <set>

namespace envlock::build::lint_rules {

namespace {

using Words = std::vector<std::string>;

void add(std::vector<Finding>& out, int line, std::string message,
         Severity severity = Severity::error) {
  out.push_back(Finding{line, severity, std::move(message)});
}

bool is_assignment(const std::string& word) {
  const auto eq = word.find('=');
  return eq != std::string::npos && eq > 0 && !word.starts_with("-") &&
         std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(eq), [](char c) {
           return c == '_' || std::isalnum(static_cast<unsigned char>(c)) != 0;
         });
}

// The index of the program word: after VAR=value prefixes, `env`, `sudo` and `exec`.
std::size_t program_index(const Words& words) {
  std::size_t i = 0;
  while (i < words.size() && (is_assignment(words[i]) || words[i] == "env" || words[i] == "sudo" ||
                              words[i] == "exec")) {
    ++i;
  }
  return i;
}

std::string program(const Words& words) {
  const std::size_t i = program_index(words);
  if (i >= words.size()) {
    return "";
  }
  const auto slash = words[i].rfind('/');
  return slash == std::string::npos ? words[i] : words[i].substr(slash + 1);
}

bool has_word(const Words& words, std::initializer_list<std::string_view> wanted) {
  return std::any_of(words.begin(), words.end(), [&](const std::string& w) {
    return std::find(wanted.begin(), wanted.end(), w) != wanted.end();
  });
}

bool is_checksum_check(const Words& words) {
  const std::string p = program(words);
  const bool tool =
      p == "sha256sum" || p == "sha512sum" || p == "sha384sum" || p == "shasum" || p == "b2sum";
  return tool && has_word(words, {"-c", "--check"});
}

bool has_pinned_digest(std::string_view image) {
  const auto at = image.find("@sha256:");
  if (at == std::string_view::npos) {
    return false;
  }
  const auto hex = image.substr(at + 8);
  return hex.size() == 64 && util::is_hex(hex);
}

// Substitutes $NAME, ${NAME} and ${NAME:-default}; `missing` gets names with no value.
std::string substitute(std::string_view text, const std::map<std::string, std::string>& args,
                       std::vector<std::string>& missing) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$') {
      out += text[i];
      continue;
    }
    std::string name;
    std::string fallback;
    if (i + 1 < text.size() && text[i + 1] == '{') {
      const auto close = text.find('}', i);
      std::string inner(text.substr(i + 2, close == std::string_view::npos ? 0 : close - i - 2));
      i = close == std::string_view::npos ? text.size() : close;
      const auto dash = inner.find(":-");
      name = inner.substr(0, dash);
      fallback = dash == std::string::npos ? "" : inner.substr(dash + 2);
    } else {
      while (i + 1 < text.size() &&
             (text[i + 1] == '_' || std::isalnum(static_cast<unsigned char>(text[i + 1])) != 0)) {
        name += text[++i];
      }
    }
    const auto it = args.find(name);
    if (it != args.end() && !it->second.empty()) {
      out += it->second;
    } else if (!fallback.empty()) {
      out += fallback;
    } else {
      missing.push_back(name);
    }
  }
  return out;
}

std::string first_url(const Words& words) {
  for (const auto& w : words) {
    if (w.find("://") != std::string::npos) {
      return w;
    }
  }
  return "";
}

bool is_pip(const Words& words, std::size_t& install_at) {
  const std::size_t i = program_index(words);
  const std::string p = program(words);
  std::size_t next = i + 1;
  if (p.starts_with("python") && next + 1 < words.size() && words[next] == "-m" &&
      words[next + 1] == "pip") {
    next += 2;
  } else if (!(p == "pip" || p.starts_with("pip3"))) {
    return false;
  }
  if (next < words.size() && words[next] == "install") {
    install_at = next;
    return true;
  }
  return false;
}

// pip options that take a value as the next word.
const std::set<std::string>& pip_value_options() {
  static const std::set<std::string> options{"-r",
                                             "--requirement",
                                             "-c",
                                             "--constraint",
                                             "-e",
                                             "--editable",
                                             "-i",
                                             "--index-url",
                                             "--extra-index-url",
                                             "-f",
                                             "--find-links",
                                             "-t",
                                             "--target",
                                             "--prefix",
                                             "--root",
                                             "--no-binary",
                                             "--only-binary",
                                             "--platform",
                                             "--python-version",
                                             "--implementation",
                                             "--abi",
                                             "--progress-bar",
                                             "--global-option",
                                             "-C",
                                             "--config-settings",
                                             "--src",
                                             "--upgrade-strategy",
                                             "--cache-dir",
                                             "--log",
                                             "--trusted-host",
                                             "--python",
                                             "--report"};
  return options;
}

// A requirement that names a package by name without pinning its version.
bool is_unpinned_name(const std::string& word) {
  if (word.empty() || word.starts_with('.') || word.starts_with('/') || word.starts_with('~') ||
      word.starts_with('$') || word.find("://") != std::string::npos ||
      word.find('@') != std::string::npos || word.ends_with(".whl") || word.ends_with(".tar.gz") ||
      word.ends_with(".zip")) {
    return false;
  }
  return word.find("==") == std::string::npos;
}

} // namespace

void check_from(const Instruction& from, const std::map<std::string, std::string>& args,
                const std::vector<std::string>& stages, std::vector<Finding>& out) {
  const FromLine parts = parse_from(from.arguments);
  const std::string lower = util::to_lower(parts.image);
  if (lower == "scratch" || std::find(stages.begin(), stages.end(), lower) != stages.end()) {
    return;
  }
  std::vector<std::string> missing;
  const std::string image = substitute(parts.image, args, missing);
  if (!missing.empty()) {
    add(out, from.line,
        "FROM " + parts.image + " has no digest: build argument " + missing.front() +
            " has no default (give it one pinned as NAME@sha256:DIGEST)");
  } else if (!has_pinned_digest(image)) {
    const std::string shown = image == parts.image ? image : parts.image + " (" + image + ")";
    add(out, from.line, "FROM " + shown + " is not pinned by digest (write NAME@sha256:DIGEST)");
  }
}

void check_downloads(const Instruction& instruction, const Commands& commands,
                     std::vector<Finding>& out) {
  if (instruction.keyword == "ADD") {
    const auto words = shell_commands(instruction.arguments);
    if (words.empty()) {
      return;
    }
    const std::string url = first_url(words.front());
    const bool checked =
        std::any_of(words.front().begin(), words.front().end(),
                    [](const std::string& w) { return w.starts_with("--checksum="); });
    if (!url.empty() && !checked) {
      add(out, instruction.line,
          "ADD " + url + " has no checksum (write ADD --checksum=sha256:HEX)");
    }
    return;
  }
  if (instruction.keyword != "RUN" ||
      std::any_of(commands.begin(), commands.end(), is_checksum_check)) {
    return;
  }
  for (const auto& words : commands) {
    const std::string p = program(words);
    if (p == "curl" || p == "wget") {
      const std::string url = first_url(words);
      add(out, instruction.line,
          p + (url.empty() ? "" : " " + url) +
              " downloads without a checksum check (add sha256sum -c in the same RUN)");
    }
  }
}

void check_uv(const Instruction& instruction, const Commands& commands, bool env_locked,
              std::vector<int>& unlocked_syncs, std::vector<Finding>& out) {
  for (const auto& words : commands) {
    const std::size_t i = program_index(words);
    if (program(words) != "uv" || i + 1 >= words.size()) {
      continue;
    }
    const bool sync = words[i + 1] == "sync";
    const bool pip_install =
        words[i + 1] == "pip" && i + 2 < words.size() && words[i + 2] == "install";
    if (!sync && !pip_install) {
      continue;
    }
    const Words prefix(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(i));
    const bool locked = env_locked || has_word(words, {"--locked", "--frozen"}) ||
                        has_word(prefix, {"UV_LOCKED=1", "UV_FROZEN=1"});
    const std::string what = sync ? "uv sync" : "uv pip install";
    if (!locked) {
      add(out, instruction.line,
          what + " without --locked or --frozen may resolve again and rewrite uv.lock");
      if (sync) {
        unlocked_syncs.push_back(instruction.line);
      }
    } else if (sync && !unlocked_syncs.empty()) {
      add(out, instruction.line,
          "uv sync --locked runs after the unlocked uv sync on line " +
              std::to_string(unlocked_syncs.front()) + ", which may have rewritten uv.lock");
    }
  }
}

void check_pip(const Instruction& instruction, const Commands& commands,
               std::vector<Finding>& out) {
  for (const auto& words : commands) {
    std::size_t at = 0;
    if (!is_pip(words, at)) {
      continue;
    }
    for (std::size_t i = at + 1; i < words.size(); ++i) {
      const std::string& w = words[i];
      if (w.starts_with('-')) {
        if (pip_value_options().count(w) != 0) {
          ++i;
        }
        continue;
      }
      if (is_unpinned_name(w)) {
        add(out, instruction.line,
            "pip install " + w + " is not pinned (write NAME==VERSION, or use uv.lock)");
      }
    }
  }
}

void check_apt(const Instruction& instruction, const Commands& commands,
               std::vector<Finding>& out) {
  for (const auto& words : commands) {
    const std::size_t i = program_index(words);
    const std::string p = program(words);
    if ((p != "apt-get" && p != "apt") || i + 1 >= words.size()) {
      continue;
    }
    const auto install =
        std::find(words.begin() + static_cast<std::ptrdiff_t>(i) + 1, words.end(), "install");
    if (install == words.end()) {
      continue;
    }
    std::vector<std::string> floating;
    for (auto it = install + 1; it != words.end(); ++it) {
      if (!it->starts_with('-') && it->find('=') == std::string::npos && !it->ends_with(".deb")) {
        floating.push_back(*it);
      }
    }
    if (!floating.empty()) {
      add(out, instruction.line,
          p + " install without versions: " + util::join(floating, ", ") +
              " (write PACKAGE=VERSION)",
          Severity::warning);
    }
  }
}

} // namespace envlock::build::lint_rules
