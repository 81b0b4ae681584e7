#include "squashfs/enroot_import.hpp"

#include "util/process.hpp"
#include "util/strings.hpp"

namespace envlock::squashfs {

std::string enroot_uri(const oci::ImageRef& image) {
  const std::string ref = image.digest.empty() ? image.reference() : image.digest;
  return "docker://" + image.registry + "#" + image.repository + ":" + ref;
}

std::string enroot_arch(const std::string& platform) {
  const auto parts = util::split(platform, '/');
  const std::string arch = parts.size() >= 2 ? parts[1] : platform;
  if (arch == "amd64") {
    return "x86_64";
  }
  if (arch == "arm64") {
    return "aarch64";
  }
  return arch;
}

EnrootCommand enroot_import_command(const oci::ImageRef& image, const std::string& arch,
                                    const std::filesystem::path& output,
                                    const std::filesystem::path& scratch,
                                    const SquashSettings& settings) {
  EnrootCommand cmd;
  cmd.argv = {"enroot", "import", "-a", arch, "-o", output.string(), enroot_uri(image)};
  cmd.env = {
      {"SOURCE_DATE_EPOCH", std::to_string(settings.source_date_epoch)},
      {"ENROOT_SQUASH_OPTIONS", settings.squash_options},
      {"ENROOT_CACHE_PATH", (scratch / "cache").string()},
      {"ENROOT_DATA_PATH", (scratch / "data").string()},
      {"ENROOT_RUNTIME_PATH", (scratch / "runtime").string()},
      {"ENROOT_TEMP_PATH", (scratch / "tmp").string()},
      {"LC_ALL", lock::to_string(settings.locale)},
  };
  return cmd;
}

Status run_enroot_import(const EnrootCommand& command) {
  if (!util::find_program(command.argv.front())) {
    return env_error("enroot: not found in PATH");
  }
  util::ProcessOptions options;
  options.env = command.env;
  options.umask = 022;
  ENVLOCK_TRY_ASSIGN(const auto run, util::run_process(command.argv, options));
  if (run.exit_code != 0) {
    const auto lines = util::split(std::string(util::trim(run.err)), '\n');
    return env_error("enroot import failed (exit " + std::to_string(run.exit_code) +
                     "): " + (lines.empty() ? std::string() : lines.back()));
  }
  return {};
}

} // namespace envlock::squashfs
