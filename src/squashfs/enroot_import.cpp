#include "squashfs/enroot_import.hpp"

#include "squashfs/pipeline.hpp"
#include "squashfs/tree_digest.hpp"
#include "util/fs.hpp"
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

Result<formats::SquashfsResult> import_with_enroot(const oci::ImageRef& image,
                                                   const std::string& platform,
                                                   const std::filesystem::path& output,
                                                   const SquashSettings& settings) {
  ENVLOCK_TRY_ASSIGN(const util::TempDir scratch, util::TempDir::create("envlock-enroot"));
  ENVLOCK_TRY(run_enroot_import(
      enroot_import_command(image, enroot_arch(platform), output, scratch.path(), settings)));
  formats::SquashfsResult r;
  ENVLOCK_TRY(describe_sqsh(output, r));
  ENVLOCK_TRY_ASSIGN(r.tree_digest, tree_digest_of(output));
  r.image_reference = image.to_string();
  r.manifest_digest = image.digest;
  r.platform = platform;
  r.producer = "enroot";
  r.squash_options = settings.squash_options;
  r.source_date_epoch = settings.source_date_epoch;
  r.locale = settings.locale;
  r.mksquashfs_arguments = mksquashfs_arguments(settings);
  ENVLOCK_TRY_ASSIGN(r.squashfs_tools_version, mksquashfs_version());
  return r;
}

} // namespace envlock::squashfs
