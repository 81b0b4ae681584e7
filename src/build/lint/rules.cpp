#include "build/lint/rules.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <set>

namespace envlock::build::lint_rules {

namespace {

void add(std::vector<Finding>& out, int line, std::string rule, std::string message,
         Severity severity = Severity::error) {
  out.push_back(Finding{line, severity, std::move(message), std::move(rule)});
}

bool is_assignment(const std::string& word) {
  const auto eq = word.find('=');
  return eq != std::string::npos && eq > 0 && !word.starts_with("-") &&
         std::all_of(word.begin(), word.begin() + static_cast<std::ptrdiff_t>(eq), [](char c) {
           return c == '_' || std::isalnum(static_cast<unsigned char>(c)) != 0;
         });
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

// pip install options that take a value as the next word: those `pip install --help` lists with a
// <value> (pip 23.2), and --group and --resume-retries (pip 25.1).
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
                                             "--report",
                                             "--root-user-action",
                                             "--keyring-provider",
                                             "--proxy",
                                             "--retries",
                                             "--timeout",
                                             "--exists-action",
                                             "--cert",
                                             "--client-cert",
                                             "--use-feature",
                                             "--use-deprecated",
                                             "--group",
                                             "--resume-retries"};
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

void check_from(const FromImage& from, std::vector<Finding>& out) {
  if (from.kind != FromKind::image) {
    return;
  }
  if (!from.missing.empty()) {
    add(out, from.line, "from-arg-without-default",
        "FROM " + from.written + " has no digest: build argument " + from.missing +
            " has no default (give it one pinned as NAME@sha256:DIGEST)");
  } else if (!has_pinned_digest(from.image)) {
    const std::string shown =
        from.image == from.written ? from.image : from.written + " (" + from.image + ")";
    add(out, from.line, "from-not-pinned",
        "FROM " + shown + " is not pinned by digest (write NAME@sha256:DIGEST)");
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
      add(out, instruction.line, "add-without-checksum",
          "ADD " + url +
              " has no checksum (write ADD --checksum=sha256:HEX, which BuildKit's Dockerfile "
              "1.6 reads but buildah 1.28 and podman 4.3 refuse; or download it in a RUN and check "
              "it with sha256sum -c)");
    }
    return;
  }
  if (instruction.keyword != "RUN" ||
      std::any_of(commands.begin(), commands.end(),
                  [](const Command& command) { return is_checksum_check(command.words); })) {
    return;
  }
  for (const auto& [line, words] : commands) {
    const std::string p = program(words);
    if (p == "curl" || p == "wget") {
      const std::string url = first_url(words);
      add(out, line, "download-without-checksum",
          p + (url.empty() ? "" : " " + url) +
              " downloads without a checksum check (add sha256sum -c in the same RUN)");
    }
  }
}

void check_uv(const Commands& commands, bool env_locked, std::vector<int>& unlocked_syncs,
              std::vector<Finding>& out) {
  for (const auto& [line, words] : commands) {
    const std::size_t i = program_index(words);
    if (program(words) == "export" && has_word(words, {"UV_LOCKED=1", "UV_FROZEN=1"})) {
      env_locked = true; // for the rest of this RUN
      continue;
    }
    if (program(words) != "uv" || i + 1 >= words.size()) {
      continue;
    }
    const Words prefix(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(i));
    const bool uv_pip = words[i + 1] == "pip" && i + 2 < words.size() &&
                        (words[i + 2] == "install" || words[i + 2] == "sync");
    if (uv_pip) {
      // uv pip neither reads nor writes uv.lock and has no --locked; only hashes pin what it
      // installs.
      if (!has_word(words, {"--require-hashes"}) &&
          !has_word(prefix, {"UV_REQUIRE_HASHES=1", "UV_REQUIRE_HASHES=true"})) {
        add(out, line, "uv-pip-outside-lock",
            "uv pip " + words[i + 2] +
                " installs packages outside uv.lock (it neither reads nor writes it): add them to "
                "the project and its uv.lock (uv add, then uv sync --locked), or pin them with "
                "hashes (uv pip " +
                words[i + 2] + " --require-hashes -r requirements.txt)");
      }
      continue;
    }
    if (words[i + 1] != "sync") {
      continue;
    }
    const bool locked = env_locked || has_word(words, {"--locked", "--frozen"}) ||
                        has_word(prefix, {"UV_LOCKED=1", "UV_FROZEN=1"});
    if (!locked) {
      add(out, line, "uv-sync-not-locked",
          "uv sync without --locked or --frozen may resolve again and rewrite uv.lock");
      unlocked_syncs.push_back(line);
    } else if (!unlocked_syncs.empty()) {
      add(out, line, "uv-sync-after-unlocked",
          "uv sync --locked runs after the unlocked uv sync on line " +
              std::to_string(unlocked_syncs.back()) + ", which may have rewritten uv.lock");
    }
  }
}

void check_pip(const Commands& commands, std::vector<Finding>& out) {
  for (const auto& [line, words] : commands) {
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
        add(out, line, "pip-not-pinned",
            "pip install " + w +
                " is not pinned (write NAME==VERSION, or add it to the project's uv.lock)");
      }
    }
  }
}

void check_apt(const Commands& commands, std::vector<Finding>& out) {
  for (const auto& [line, words] : commands) {
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
      add(out, line, "apt-not-pinned",
          p + " install without versions: " + util::join(floating, ", ") +
              " (write PACKAGE=VERSION)",
          Severity::warning);
    }
  }
}

} // namespace envlock::build::lint_rules
