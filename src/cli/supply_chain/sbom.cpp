// `envlock sbom`: the CycloneDX SBOM of exactly what an image has installed, tied to its lock
// (docs/manual/sbom.md).
#include "cli/commands.hpp"
#include "cli/project_files.hpp"
#include "cli/registry_options.hpp"
#include "cli/source_date_epoch.hpp"
#include "cli/supply_chain/sbom_document.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"

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
std::optional<std::string> sbom_lock_path(SbomArgs& args) {
  find_in_parents(args.lock_option, args.lock);
  std::error_code ec;
  if (args.lock_option->count() == 0 && !fs::exists(args.lock, ec)) {
    std::cerr << "envlock: no lock (" << k_sbom_default_lock
              << " not found here or above): the SBOM lists what is installed, compared with "
                 "no lock\n";
    return std::nullopt;
  }
  return args.lock;
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
  SbomSource source;
  source.root = args.root;
  source.sqsh = args.sqsh;
  source.image = args.image;
  source.lock = sbom_lock_path(args);
  source.platform = args.platform;
  if (epoch) {
    source.source_date_epoch = epoch->value;
  }
  source.registry = args.registry;
  ENVLOCK_TRY_ASSIGN(const std::string document, sbom_document(source));
  ENVLOCK_TRY(cmdline::write_output(args.output, document));
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
