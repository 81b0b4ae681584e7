// `envlock sbom`: the CycloneDX SBOM of exactly what an image has installed, tied to its lock
// (docs/manual/sbom.md).
#include "cli/commands.hpp"
#include "cli/project_files.hpp"
#include "cli/registry_options.hpp"
#include "cli/source_date_epoch.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "lock/lock.hpp"
#include "oci/platform.hpp"
#include "sbom/collect.hpp"
#include "sbom/cyclonedx.hpp"
#include "sbom/image_tree.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"
#include "uv/uv_lock.hpp"

#include <iostream>
#include <memory>

namespace envlock::cli::sbom_command {

namespace {

namespace fs = std::filesystem;

constexpr const char* k_sbom_default_lock = "envlock.lock.json";

struct SbomArgs {
  std::string root;
  std::string sqsh;
  std::string image;
  std::string lock = k_sbom_default_lock;
  CLI::Option* lock_option = nullptr;
  std::string format;
  std::string output;
  std::string platform;
  std::optional<std::int64_t> epoch;
  oci::RegistryOptions registry;
};

// The lock, when --lock names one or envlock.lock.json is found here or above; else nothing,
// said on standard error.
Result<std::optional<lock::Lock>> read_optional_lock(SbomArgs& args) {
  find_in_parents(args.lock_option, args.lock);
  std::error_code ec;
  if (args.lock_option->count() == 0 && !fs::exists(args.lock, ec)) {
    std::cerr << "envlock: no lock (" << k_sbom_default_lock
              << " not found here or above): the SBOM lists what is installed, compared with "
                 "no lock\n";
    return std::optional<lock::Lock>();
  }
  ENVLOCK_TRY_ASSIGN(lock::Lock lock, lock::read_lock(args.lock));
  return std::optional<lock::Lock>(std::move(lock));
}

// uv.lock beside the manifest the lock was made from, checked against the lock's sha256.
Status read_uv_lock(const SbomArgs& args, const lock::Lock& lock, sbom::SbomInputs& inputs) {
  if (lock.python.uv_lock.path.empty()) {
    return {};
  }
  const fs::path manifest_dir =
      fs::path(args.lock).parent_path() / fs::path(lock.manifest_path).parent_path();
  const fs::path path = (manifest_dir / lock.python.uv_lock.path).lexically_normal();
  std::error_code ec;
  if (!fs::exists(path, ec)) {
    std::cerr << "envlock: " << path.string()
              << ": not found; the SBOM gives no wheel hashes (uv.lock is read beside the "
                 "manifest)\n";
    return {};
  }
  ENVLOCK_TRY_ASSIGN(std::string text, util::read_file_limited(path, uv::k_uv_lock_limit));
  const std::string sha = util::sha256_hex(text);
  if (sha != lock.python.uv_lock.sha256) {
    return input_error(path.string() + ": sha256 " + sha + ", not the " +
                       lock.python.uv_lock.sha256 + " " + args.lock +
                       " records; lock again (envlock lock) or give the lock uv.lock was locked "
                       "with");
  }
  inputs.uv_lock_text = std::move(text);
  inputs.uv_lock_origin = path.string();
  return {};
}

Result<sbom::ImageTree> image_tree(const SbomArgs& args, const std::optional<lock::Lock>& lock) {
  if (!args.root.empty()) {
    return sbom::tree_of_folder(args.root);
  }
  if (!args.sqsh.empty()) {
    return sbom::tree_of_sqsh(args.sqsh);
  }
  ENVLOCK_TRY_ASSIGN(const oci::ImageRef ref, oci::parse_image_ref(args.image));
  std::string platform = args.platform;
  if (platform.empty()) {
    platform = lock && !lock->base_image.platform.empty() ? lock->base_image.platform
                                                          : oci::k_default_platform;
  }
  return sbom::tree_of_image(ref, platform, args.registry,
                             lock ? lock->enroot.locale : lock::EnrootLocale::utf8);
}

Result<ExitCode> run_sbom(SbomArgs& args) {
  if (args.format == "spdx") {
    return input_error(
        "--format spdx: not offered: no SPDX 2.3 validator from the registries envlock's tests "
        "use can check it, so envlock writes CycloneDX 1.6 only (docs/manual/sbom.md)");
  }
  const int given =
      (args.root.empty() ? 0 : 1) + (args.sqsh.empty() ? 0 : 1) + (args.image.empty() ? 0 : 1);
  if (given != 1) {
    return input_error("give exactly one of --root DIR, --sqsh FILE and --image REF@DIGEST");
  }
  ENVLOCK_TRY_ASSIGN(const auto epoch, source_date_epoch_override(args.epoch));
  ENVLOCK_TRY_ASSIGN(std::optional<lock::Lock> lock, read_optional_lock(args));
  ENVLOCK_TRY_ASSIGN(const sbom::ImageTree tree, image_tree(args, lock));
  for (const auto& note : tree.notes) {
    std::cerr << "envlock: " << note << "\n";
  }
  sbom::SbomInputs inputs;
  inputs.root = tree.root;
  inputs.image = tree.facts;
  if (lock) {
    ENVLOCK_TRY(read_uv_lock(args, *lock, inputs));
  }
  inputs.lock = std::move(lock);
  if (epoch) {
    inputs.source_date_epoch = epoch->value;
  }
  inputs.envlock_version = ENVLOCK_VERSION;
  ENVLOCK_TRY_ASSIGN(const sbom::Bom bom, sbom::collect_bom(inputs));
  ENVLOCK_TRY(cmdline::write_output(args.output, util::canonical_json(sbom::to_cyclonedx(bom))));
  return ExitCode::ok;
}

Runner setup(CLI::App& app) {
  auto args = std::make_shared<SbomArgs>();
  app.add_option("--root", args->root, "The image's tree: an unpacked image or a mounted .sqsh")
      ->type_name("DIR");
  app.add_option("--sqsh", args->sqsh, "An Enroot .sqsh (unpacked with unsquashfs)")
      ->type_name("FILE");
  app.add_option("--image", args->image, "An image in its registry, by digest")
      ->type_name("REF@DIGEST");
  args->lock_option =
      app.add_option("--lock", args->lock,
                     "The image's lock (default: envlock.lock.json here or above; none: the SBOM "
                     "is compared with no lock)")
          ->type_name("FILE");
  app.add_option("--platform", args->platform,
                 "With --image: the platform (default: the lock's, else linux/amd64)")
      ->type_name("OS/ARCH");
  cmdline::add_format_option(app, args->format, {"cyclonedx", "spdx"},
                             "default: cyclonedx (CycloneDX 1.6 JSON); spdx is not offered");
  cmdline::add_output_option(app, args->output,
                             "Write the SBOM here; - for standard output (default: standard "
                             "output)");
  add_source_date_epoch_option(app, args->epoch,
                               "The SBOM's timestamp (default: SOURCE_DATE_EPOCH, else the "
                               "lock's enroot.source_date_epoch)");
  add_registry_options(app, args->registry);
  cmdline::set_footer(app, "envlock sbom --sqsh image.sqsh -o sbom.cdx.json",
                      "docs/manual/sbom.md");
  return [args] { return run_sbom(*args); };
}

} // namespace

CommandSpec spec() {
  return {"sbom", "Write the CycloneDX SBOM of what an image has installed", setup};
}

} // namespace envlock::cli::sbom_command
