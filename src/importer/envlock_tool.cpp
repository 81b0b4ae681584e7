#include "importer/envlock_tool.hpp"

#include "util/json.hpp"
#include "util/process.hpp"
#include "util/strings.hpp"

#include <cstdio>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_error_prefix = "envlock: error: ";
constexpr std::string_view k_warning_prefix = "envlock: warning: ";

// The child's failure as an error with its exit code and its own message.
Error failure(const std::string& command, const util::ProcessResult& result) {
  std::string message;
  for (const auto& line : util::split(result.err, '\n')) {
    if (line.starts_with(k_error_prefix)) {
      message = line.substr(k_error_prefix.size());
    }
  }
  if (message.empty()) {
    message = "exited " + std::to_string(result.exit_code) + ": " +
              std::string(util::trim(result.err.empty() ? result.out : result.err));
  }
  const int code = result.exit_code;
  Error error{code == 1   ? ExitCode::failed
              : code == 2 ? ExitCode::usage
                          : ExitCode::environment,
              command + ": " + message};
  return error;
}

} // namespace

Result<fs::path> envlock_tool() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    return env_error("/proc/self/exe: " + ec.message());
  }
  if (self.filename() == "envlock") {
    return self;
  }
  const fs::path beside = self.parent_path() / "envlock";
  if (!fs::is_regular_file(beside, ec)) {
    return env_error(beside.string() + ": not found; envlock-importer runs envlock beside it to "
                                       "import an image");
  }
  return beside;
}

std::vector<std::string> registry_arguments(const oci::RegistryOptions& options) {
  std::vector<std::string> args;
  for (const auto& host : options.insecure_registries) {
    args.push_back("--insecure-registry=" + host);
  }
  if (!options.ca_file.empty()) {
    args.push_back("--ca-file=" + options.ca_file);
  }
  const auto timeout_ms = options.timeout.count();
  args.push_back("--registry-timeout=" + std::to_string(timeout_ms / 1000) + "." +
                 std::to_string(timeout_ms % 1000 / 100));
  args.push_back("--registry-deadline=" + std::to_string(options.deadline.count() / 1000) + "." +
                 std::to_string(options.deadline.count() % 1000 / 100));
  args.push_back("--registry-attempts=" + std::to_string(options.max_attempts));
  return args;
}

Result<formats::SquashfsResult>
run_squashfs(const fs::path& tool, const SquashRequest& request,
             const std::function<void(const std::string&)>& on_warning) {
  std::vector<std::string> argv = {tool.string(),
                                   "squashfs",
                                   "--image=" + request.image.to_string(),
                                   "--platform=" + request.platform,
                                   "--squash-options=" + request.settings.squash_options,
                                   "--source-date-epoch=" +
                                       std::to_string(request.settings.source_date_epoch),
                                   "--output=" + request.output.string(),
                                   "--result=" + request.result.string()};
  for (auto& arg : registry_arguments(request.registry)) {
    argv.push_back(std::move(arg));
  }
  util::ProcessOptions options;
  options.env["TMPDIR"] = request.scratch.string();
  options.die_with_parent = true;
  ENVLOCK_TRY_ASSIGN(const util::ProcessResult run, util::run_process(argv, options));
  for (const auto& line : util::split(run.err, '\n')) {
    if (line.starts_with(k_warning_prefix) && on_warning) {
      on_warning(line.substr(k_warning_prefix.size()));
    }
  }
  if (run.exit_code != 0) {
    return failure("envlock squashfs", run);
  }
  return formats::read_squashfs_result(request.result);
}

Result<Resolution> run_resolve(const fs::path& tool, const oci::ImageRef& image,
                               const std::string& platform, const oci::RegistryOptions& registry) {
  std::vector<std::string> argv = {tool.string(), "resolve", "--format=json",
                                   "--platform=" + platform, image.to_string()};
  for (auto& arg : registry_arguments(registry)) {
    argv.push_back(std::move(arg));
  }
  util::ProcessOptions options;
  options.die_with_parent = true;
  ENVLOCK_TRY_ASSIGN(const util::ProcessResult run, util::run_process(argv, options));
  if (run.exit_code != 0) {
    return failure("envlock resolve", run);
  }
  ENVLOCK_TRY_ASSIGN(const nlohmann::json value, util::parse_json(run.out, "envlock resolve"));
  if (!value.is_object() || !value.value("digest", nlohmann::json()).is_string() ||
      !value.value("platform_digest", nlohmann::json()).is_string()) {
    return env_error("envlock resolve: printed no digest");
  }
  return Resolution{value["digest"].get<std::string>(),
                    value["platform_digest"].get<std::string>()};
}

Result<std::vector<FetchedAttestation>> run_attest_fetch(const fs::path& tool,
                                                         const oci::ImageRef& image,
                                                         const fs::path& dir,
                                                         const oci::RegistryOptions& registry) {
  std::vector<std::string> argv = {
      tool.string(),          "attest", "fetch", image.to_string(), "--type=provenance",
      "--dir=" + dir.string()};
  for (auto& arg : registry_arguments(registry)) {
    argv.push_back(std::move(arg));
  }
  util::ProcessOptions options;
  options.die_with_parent = true;
  ENVLOCK_TRY_ASSIGN(const util::ProcessResult run, util::run_process(argv, options));
  if (run.exit_code != 0) {
    return failure("envlock attest fetch", run);
  }
  // "wrote DIR/NAME (provenance, sha256:HEX)", one line per attestation.
  std::vector<FetchedAttestation> out;
  for (const auto& line : util::split(run.out, '\n')) {
    const auto open = line.rfind(" (provenance, ");
    if (!line.starts_with("wrote ") || open == std::string::npos || !line.ends_with(")")) {
      continue;
    }
    const std::size_t digest_at = open + std::string_view(" (provenance, ").size();
    out.push_back(
        {fs::path(line.substr(6, open - 6)), line.substr(digest_at, line.size() - 1 - digest_at)});
  }
  if (out.empty()) {
    return env_error("envlock attest fetch " + image.to_string() + ": wrote no file it named");
  }
  return out;
}

} // namespace envlock::importer
