#include "build/build_run.hpp"

#include "build/builder_auth.hpp"
#include "build/recipe.hpp"
#include "oci/image_ref.hpp"
#include "oci/known_secrets.hpp"
#include "oci/session.hpp"
#include "util/clock.hpp"

#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <chrono>
#include <system_error>

namespace envlock::build {

namespace fs = std::filesystem;

namespace {

// The build log: the builder's output, and each command line envlock runs, as "$ ARGV".
class BuildLog {
public:
  BuildLog(util::AtomicFile file, std::function<void(std::string_view)> echo)
      : m_file(std::move(file)), m_echo(std::move(echo)) {}

  void write(std::string_view text) {
    if (m_error) {
      return;
    }
    auto written = m_file.write(text);
    if (!written) {
      m_error = std::move(written).error();
    }
    if (m_echo) {
      m_echo(text);
    }
    m_tail.append(text);
    if (m_tail.size() > 2 * k_tail_bytes) {
      m_tail.erase(0, m_tail.size() - k_tail_bytes);
    }
  }

  // Runs argv with its output streamed into the log; a non-zero exit fails with `what`.
  Result<util::ProcessResult> run(const std::vector<std::string>& argv, const std::string& what,
                                  const util::ProcessOptions& base) {
    write("$ " + util::join(argv, " ") + "\n");
    util::ProcessOptions options = base;
    options.on_output = [this](std::string_view chunk) { write(chunk); };
    auto ran = util::run_process(argv, options);
    if (!ran) {
      // Interrupted (or the builder would not start): the log so far is kept.
      ENVLOCK_TRY(commit());
      return Error{ran.error().code,
                   ran.error().message + "; the log is in " + m_file.path().string()};
    }
    util::ProcessResult result = std::move(*ran);
    if (result.exit_code != 0) {
      ENVLOCK_TRY(commit());
      return env_error(what + " failed (exit " + std::to_string(result.exit_code) +
                       "); the log is in " + m_file.path().string() + last_lines());
    }
    return result;
  }

  Status commit() {
    if (m_error) {
      return *m_error;
    }
    return m_file.commit();
  }

private:
  static constexpr std::size_t k_tail_bytes = 8192;
  static constexpr std::size_t k_tail_lines = 20;

  // The log's last lines, for a failure the user did not watch (-q): "; its last lines:" and
  // each line indented; nothing when the log was echoed.
  std::string last_lines() const {
    if (m_echo) {
      return {};
    }
    // Scrubbed: the builder may print a credential it was given, and this goes to stderr.
    const std::string tail = oci::known_secrets().scrub(util::trim(m_tail));
    std::vector<std::string> lines = util::split(std::string(util::trim(tail)), '\n');
    if (lines.size() > k_tail_lines) {
      lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(k_tail_lines));
    }
    std::string out = "; its last lines:";
    for (const auto& line : lines) {
      out += "\n  | " + line;
    }
    return out;
  }

  util::AtomicFile m_file;
  std::function<void(std::string_view)> m_echo;
  std::optional<Error> m_error;
  std::string m_tail; // the last few KiB written
};

// The registry of an image name or reference ("" when it does not parse).
std::string image_host(const std::string& name) {
  const auto ref = oci::parse_image_ref(name);
  return ref ? ref->registry : "";
}

Result<std::string> builder_version(BuilderKind kind) {
  const std::string name = builder_name(kind);
  if (!util::find_program(name)) {
    return env_error(name + ": not found in PATH; install " + name +
                     ", or choose another builder with --builder buildah|docker|podman");
  }
  ENVLOCK_TRY_ASSIGN(const auto result, util::run_process({name, "--version"}));
  const std::string version = parse_builder_version(result.out);
  if (result.exit_code != 0 || version.empty()) {
    return env_error(
        name + " --version gave no version: " + std::string(util::trim(result.out + result.err)));
  }
  return version;
}

Result<std::string> read_digest(const fs::path& path, const std::string& what) {
  auto text = util::read_file(path);
  const std::string digest = text ? parse_digest_file(*text) : "";
  if (digest.empty()) {
    return env_error(what + " wrote no digest to " + path.filename().string());
  }
  return digest;
}

// docker's --metadata-file: {"containerimage.digest": "sha256:..."}.
Result<std::string> docker_pushed_digest(const fs::path& path) {
  ENVLOCK_TRY_ASSIGN(const auto metadata, util::read_json_file(path));
  const std::string digest =
      parse_digest_file(metadata.value("containerimage.digest", std::string()));
  if (digest.empty()) {
    return env_error("docker buildx wrote no containerimage.digest to its metadata file");
  }
  return digest;
}

} // namespace

fs::path log_file_for(const fs::path& result_path) {
  std::string name = result_path.filename().string();
  if (name.size() > 5 && name.ends_with(".json")) {
    name.resize(name.size() - 5);
  }
  return result_path.parent_path() / (name + ".log");
}

fs::path result_file(const BuildRequest& request) {
  if (request.result_path) {
    return fs::absolute(*request.result_path);
  }
  return fs::absolute(request.context.lock_path).parent_path() / formats::k_build_result_file;
}

Result<formats::BuildResult> run_build(const BuildRequest& request) {
  ENVLOCK_TRY_ASSIGN(const std::string version, builder_version(request.builder));
  ENVLOCK_TRY_ASSIGN(const PreparedContext prepared, prepare_context(request.context));
  const lock::Lock& lock = prepared.lock;
  if (lock.image.repository.empty() || lock.image.tag.empty()) {
    return input_error(request.context.lock_path.string() +
                       ": image.repository and image.tag must be set to build");
  }
  ENVLOCK_TRY_ASSIGN(const util::TempDir work, util::TempDir::create("envlock-build"));
  const fs::path context_dir = work.path() / "context";
  ENVLOCK_TRY_ASSIGN(const ContextTar tar,
                     write_context_file(prepared.plan, work.path() / "context.tar"));
  std::error_code made;
  if (!fs::create_directories(context_dir, made) || made) {
    return env_error("cannot create " + context_dir.string() + ": " + made.message());
  }
  ENVLOCK_TRY_ASSIGN(const auto untar,
                     util::run_process({"tar", "-x", "-f", (work.path() / "context.tar").string(),
                                        "-C", context_dir.string()}));
  if (untar.exit_code != 0) {
    return env_error("cannot unpack the build context: " + std::string(util::trim(untar.err)));
  }

  BuildCommand command;
  command.kind = request.builder;
  command.context_dir = context_dir;
  command.dockerfile = prepared.plan.dockerfile;
  command.image = lock.image.repository + ":" + lock.image.tag;
  command.build_args = lock.build_args;
  command.source_date_epoch =
      request.context.options.source_date_epoch.value_or(lock.enroot.source_date_epoch);
  command.isolation = request.isolation;
  // Every registry the build talks to: the target, the base image and the recipe's images.
  const auto& recipe = lock.recipe;
  std::vector<std::string> hosts{image_host(lock.image.repository),
                                 image_host(lock.base_image.name)};
  if (recipe) {
    for (const auto& image : recipe->images) {
      hosts.push_back(image_host(image.image));
    }
  }
  // The builder has one TLS switch for all of them: off when one is listed as insecure, or when
  // every one is on loopback (insecure by default, as in docker).
  const auto& insecure = request.insecure_registries;
  const bool listed = std::any_of(hosts.begin(), hosts.end(), [&](const std::string& host) {
    return std::find(insecure.begin(), insecure.end(), host) != insecure.end();
  });
  const bool all_loopback = std::all_of(hosts.begin(), hosts.end(), [](const std::string& host) {
    return oci::is_loopback_registry(host);
  });
  command.tls = listed || all_loopback ? TlsVerify::off : TlsVerify::on;
  const fs::path auth_dir = work.path() / "auth";
  std::error_code made_auth;
  fs::create_directories(auth_dir, made_auth);
  if (made_auth) {
    return env_error("cannot create " + auth_dir.string() + ": " + made_auth.message());
  }
  ENVLOCK_TRY_ASSIGN(const auto auth_file,
                     write_builder_auth(request.credentials, hosts, auth_dir));
  if (auth_file) {
    command.auth_file = *auth_file;
  }
  command.id_file = work.path() / "image.id";
  command.metadata_file = work.path() / "metadata.json";
  command.push = request.push;

  const fs::path result_path = result_file(request);
  const fs::path log_path = log_file_for(result_path);
  if (!request.result_path) {
    ENVLOCK_TRY(util::check_default_output(result_path, "--result"));
  }
  std::error_code ec;
  fs::create_directories(result_path.parent_path(), ec);
  if (ec) {
    return env_error("cannot create " + result_path.parent_path().string() + ": " + ec.message());
  }
  ENVLOCK_TRY_ASSIGN(util::AtomicFile log_file, util::AtomicFile::open(log_path));
  BuildLog log(std::move(log_file), request.on_log);
  util::ProcessOptions options;
  options.env["SOURCE_DATE_EPOCH"] = std::to_string(command.source_date_epoch);
  if (auth_file && request.builder == BuilderKind::docker) {
    options.env["DOCKER_CONFIG"] = auth_dir.string();
  }

  formats::BuildResult result;
  result.started_at = util::rfc3339_utc(std::chrono::system_clock::now());
  const std::string name = builder_name(request.builder);
  ENVLOCK_TRY(log.run(build_argv(command), name + " build", options));
  if (request.push == Push::yes && request.builder == BuilderKind::docker) {
    ENVLOCK_TRY_ASSIGN(result.digest, docker_pushed_digest(command.metadata_file));
  } else if (request.push == Push::yes) {
    const fs::path digest_file = work.path() / "pushed.digest";
    ENVLOCK_TRY(log.run(push_argv(command, digest_file), name + " push", options));
    ENVLOCK_TRY_ASSIGN(result.digest, read_digest(digest_file, name + " push"));
  } else {
    ENVLOCK_TRY_ASSIGN(result.digest, read_digest(command.id_file, name + " build"));
  }
  result.finished_at = util::rfc3339_utc(std::chrono::system_clock::now());
  ENVLOCK_TRY(log.commit());

  result.repository = lock.image.repository;
  result.tag = lock.image.tag;
  result.pushed = request.push == Push::yes;
  result.builder_name = name;
  result.builder_version = version;
  result.lock_sha256 = lock::lock_sha256(lock);
  result.dockerfile_sha256 = util::sha256_hex(prepared.dockerfile);
  result.context_sha256 = tar.sha256;
  result.build_args = lock.build_args;
  result.source_date_epoch = command.source_date_epoch;
  result.log_path = log_path.filename().string();
  ENVLOCK_TRY_ASSIGN(result.log_sha256, util::sha256_file_hex(log_path));
  ENVLOCK_TRY(formats::write_build_result(result_path, result));
  return result;
}

} // namespace envlock::build
