#include "build/template_context.hpp"

#include "build/render_quote.hpp"
#include "git/location.hpp"

#include <algorithm>
#include <string_view>

namespace envlock::build {

using nlohmann::json;

namespace {

constexpr std::string_view k_uv_release_url = "https://github.com/astral-sh/uv/releases/download/";

bool is_arg_name(std::string_view name) {
  const auto word = [](char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  return !name.empty() && !(name[0] >= '0' && name[0] <= '9') &&
         std::all_of(name.begin(), name.end(), word);
}

bool is_version(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '.' ||
           c == '+' || c == '-';
  });
}

// Checks fields and remembers the first problem as "ORIGIN: FIELD: problem".
class Checker {
public:
  explicit Checker(std::string origin) : m_origin(std::move(origin)) {}

  void require(bool ok, const std::string& field, const std::string& problem) {
    if (!ok && !m_error) {
      m_error = input_error(m_origin + ": " + field + ": " + problem);
    }
  }
  // The value of a quoting function, or "" after remembering its error under `field`.
  std::string quoted(const std::string& field, Result<std::string> result) {
    require(result.has_value(), field, result ? "" : result.error().message);
    return result ? std::move(result).value() : std::string();
  }
  [[nodiscard]] const std::optional<Error>& error() const { return m_error; }

private:
  std::string m_origin;
  std::optional<Error> m_error;
};

// The Rust target triple of uv's release archive for an OCI platform, or "" when uv ships none.
std::string uv_triple(std::string_view platform) {
  if (platform == "linux/amd64") {
    return "x86_64-unknown-linux-gnu";
  }
  if (platform == "linux/arm64" || platform == "linux/arm64/v8") {
    return "aarch64-unknown-linux-gnu";
  }
  return "";
}

void check_pins(const lock::Lock& lock, Checker& check) {
  const auto& base = lock.base_image;
  check.require(!uv_triple(base.platform).empty(), "base_image.platform",
                "'" + base.platform +
                    "' has no uv release archive envlock knows (linux/amd64, linux/arm64)");
  check.require(is_version(lock.python.uv_version), "python.uv.version",
                "'" + lock.python.uv_version + "' is not a uv version");
  check.require(!lock.python.uv_sha256.empty(), "python.uv.sha256",
                "'' is not a sha256 (64 hex digits)");
}

json label(const std::string& key, std::string quoted_value) {
  return {{"key", key}, {"value", std::move(quoted_value)}};
}

// The OCI and envlock labels, sorted by key.
json labels(const lock::Lock& lock, const std::string& lock_sha256, Checker& check) {
  const auto& base = lock.base_image;
  json out = json::array();
  out.push_back(label("io.envlock.lock.sha256", "\"" + lock_sha256 + "\""));
  out.push_back(label("org.opencontainers.image.base.digest", "\"" + base.digest + "\""));
  const std::string base_name = base.tag.empty() ? base.name : base.name + ":" + base.tag;
  out.push_back(label("org.opencontainers.image.base.name",
                      check.quoted("base_image.name", dockerfile_quote(base_name))));
  if (const auto it = lock.sources.find("megatron"); it != lock.sources.end()) {
    out.push_back(label("org.opencontainers.image.revision", "\"" + it->second.commit + "\""));
    out.push_back(label("org.opencontainers.image.source",
                        check.quoted("sources.megatron.git",
                                     dockerfile_quote(git::redact_location(it->second.git)))));
  }
  out.push_back(label("org.opencontainers.image.title",
                      check.quoted("image.name", dockerfile_quote(lock.image.name))));
  out.push_back(label("org.opencontainers.image.version",
                      check.quoted("image.tag", dockerfile_quote(lock.image.tag))));
  return out;
}

} // namespace

Result<json> template_context(const lock::Lock& lock, const std::string& origin,
                              Verifier verifier) {
  ENVLOCK_TRY(lock::check_pins(lock, origin));
  Checker check(origin);
  check_pins(lock, check);
  if (check.error()) {
    return *check.error();
  }
  json ctx = lock::to_json(lock);
  const auto& base = lock.base_image;
  ctx["base_image"]["pinned"] = base.name + "@" + base.digest;
  ctx["base_image"]["tagged"] = base.tag.empty() ? base.name : base.name + ":" + base.tag;
  for (const auto& [name, pin] : lock.sources) {
    ctx["sources"][name]["git"] = git::redact_location(pin.git);
  }

  json args = json::array();
  for (const auto& [name, value] : lock.build_args) {
    check.require(is_arg_name(name), "build_args." + name,
                  "not a valid build argument name (letters, digits and _)");
    args.push_back({{"name", name},
                    {"value", value},
                    {"quoted", check.quoted("build_args." + name, dockerfile_quote(value))}});
  }
  ctx["has_build_args"] = !args.empty();
  ctx["build_args"] = args;

  json& python = ctx["python"];
  json quoted_args = json::array();
  for (std::size_t i = 0; i < lock.python.sync_args.size(); ++i) {
    quoted_args.push_back(check.quoted("python.sync_args[" + std::to_string(i) + "]",
                                       shell_word(lock.python.sync_args[i])));
  }
  python["sync_args_quoted"] = quoted_args;
  python["sync_args_joined"] = check.quoted("python.sync_args", shell_join(lock.python.sync_args));
  const std::string dir = "uv-" + uv_triple(base.platform);
  python["uv"]["dir"] = dir;
  python["uv"]["archive"] = dir + ".tar.gz";
  python["uv"]["url"] =
      std::string(k_uv_release_url) + lock.python.uv_version + "/" + dir + ".tar.gz";

  const std::string lock_sha256 = lock::lock_sha256(lock);
  ctx["lock_sha256"] = lock_sha256;
  ctx["envlock_version"] = ENVLOCK_VERSION;
  ctx["with_verifier"] = verifier == Verifier::include;
  ctx["labels"] = labels(lock, lock_sha256, check);
  if (check.error()) {
    return *check.error();
  }
  return ctx;
}

} // namespace envlock::build
