// `envlock build`: builds (and with --push pushes) the image of the lock and writes
// build-result.json; with --attest, attaches the signed provenance of the build and the image's
// SBOM to the pushed image (docs/manual/build.md).
#include "attest/artifact.hpp"
#include "build/build_run.hpp"
#include "cli/commands.hpp"
#include "cli/project_files.hpp"
#include "cli/source_date_epoch.hpp"
#include "cli/supply_chain/attach.hpp"
#include "cli/supply_chain/sbom_document.hpp"
#include "cmdline/help.hpp"
#include "lock/lock.hpp"
#include "manifest/manifest.hpp"
#include "oci/session.hpp"
#include "provenance/inputs.hpp"
#include "provenance/key_files.hpp"
#include "provenance/keys.hpp"
#include "provenance/signing.hpp"
#include "resolve/drift.hpp"
#include "util/json.hpp"

#include <filesystem>
#include <iostream>
#include <memory>

namespace envlock::cli::build_command {

namespace {

struct BuildCliOptions {
  std::string lock = "envlock.lock.json";
  std::string template_path;
  std::string megatron_repo;
  std::string builder = "buildah";
  std::string isolation = "chroot";
  std::string result;
  std::vector<std::string> insecure_registries;
  bool with_verifier = false;
  bool push = false;
  bool quiet = false;
  std::optional<std::int64_t> source_date_epoch;
  std::vector<std::string> attest; // provenance, sbom
  std::string key;                 // signs the provenance; empty: the default key
};

namespace pv = envlock::provenance;

// What --attest asks for, checked before the build starts: the private key read when provenance
// is asked for (nothing when it is not).
Result<std::optional<pv::Key>> attest_key(const BuildCliOptions& options) {
  if (options.attest.empty()) {
    return std::optional<pv::Key>();
  }
  if (!options.push) {
    return input_error("--attest needs --push: attestations are attached to the image in its "
                       "registry");
  }
  bool wants_provenance = false;
  for (const auto& kind : options.attest) {
    if (kind != "provenance" && kind != "sbom") {
      return input_error("--attest '" + kind + "': not one of provenance, sbom");
    }
    wants_provenance = wants_provenance || kind == "provenance";
  }
  if (!wants_provenance) {
    return std::optional<pv::Key>();
  }
  std::filesystem::path key_path = options.key;
  if (key_path.empty()) {
    ENVLOCK_TRY_ASSIGN(key_path, pv::default_key_path());
  }
  ENVLOCK_TRY_ASSIGN(pv::Key key, pv::read_key(key_path, pv::KeyHalf::private_key));
  return std::optional<pv::Key>(std::move(key));
}

// The provenance of the build just pushed (the lock and build-result.json; no .sqsh yet), signed.
Result<attest::AttestationFile> build_provenance(const build::BuildRequest& request,
                                                 const pv::Key& key) {
  ENVLOCK_TRY_ASSIGN(const pv::GatheredInputs gathered,
                     pv::gather_inputs({request.context.lock_path, build::result_file(request), {}},
                                       ENVLOCK_VERSION));
  for (const std::string& warning : gathered.warnings) {
    std::cerr << "envlock: warning: " << warning << "\n";
  }
  const std::string statement = util::canonical_json(pv::make_statement(gathered.inputs));
  ENVLOCK_TRY_ASSIGN(const pv::Envelope envelope,
                     pv::sign_statement(statement, key, "the provenance of the build"));
  return attest::classify("provenance.dsse.json", util::canonical_json(pv::to_json(envelope)));
}

// The SBOM of the pushed image, pulled by its digest and compared with the lock.
Result<attest::AttestationFile> build_sbom(const build::BuildRequest& request,
                                           const formats::BuildResult& result,
                                           const oci::RegistryOptions& registry) {
  SbomSource source;
  source.image = result.reference();
  source.lock = request.context.lock_path.string();
  source.source_date_epoch = result.source_date_epoch;
  source.registry = registry;
  ENVLOCK_TRY_ASSIGN(std::string document, sbom_document(source));
  return attest::classify("sbom.cdx.json", std::move(document));
}

Status attach_to_build(const BuildCliOptions& options, const build::BuildRequest& request,
                       const formats::BuildResult& result, const std::optional<pv::Key>& key) {
  oci::RegistryOptions registry;
  registry.insecure_registries = request.insecure_registries;
  std::vector<attest::AttestationFile> files;
  for (const auto& kind : options.attest) {
    if (kind == "provenance") {
      ENVLOCK_TRY_ASSIGN(attest::AttestationFile file, build_provenance(request, *key));
      files.push_back(std::move(file));
    } else {
      ENVLOCK_TRY_ASSIGN(attest::AttestationFile file, build_sbom(request, result, registry));
      files.push_back(std::move(file));
    }
  }
  ENVLOCK_TRY_ASSIGN(const oci::ImageRef image, oci::parse_image_ref(result.reference()));
  oci::RegistryClient client(registry);
  return attach_files(client, image, files);
}

// The local part of `envlock lock --check`: a lock that no longer matches its manifest (an
// older ref, a changed expect) or the files it hashed is refused before anything is built or
// pushed. A lock whose manifest is not beside it (copied alone) is built with a warning.
Status check_lock_current(const BuildCliOptions& options) {
  namespace fs = std::filesystem;
  const auto read = lock::read_lock(options.lock);
  if (!read) {
    return {}; // the build reports it, after it has checked the builder
  }
  const lock::Lock& lock = *read;
  const fs::path manifest_path = fs::path(options.lock).parent_path() / lock.manifest_path;
  std::error_code ec;
  if (lock.manifest_path.empty() || !fs::exists(manifest_path, ec)) {
    std::cerr << "envlock: warning: " << manifest_path.string()
              << " not found; the lock is built without checking it against its manifest\n";
    return {};
  }
  ENVLOCK_TRY_ASSIGN(const manifest::Manifest manifest, manifest::load_manifest(manifest_path));
  const resolve::ImageResolver offline = [](const oci::ImageRef& image,
                                            std::string_view) -> Result<oci::Resolved> {
    return env_error(image.to_string() + ": not resolved (envlock build checks offline)");
  };
  std::optional<fs::path> megatron_repo;
  if (!options.megatron_repo.empty()) {
    megatron_repo = options.megatron_repo;
  }
  ENVLOCK_TRY_ASSIGN(const std::vector<std::string> drifts,
                     resolve::find_drift(manifest, lock, options.lock, resolve::Refresh::local_only,
                                         offline, megatron_repo));
  if (drifts.empty()) {
    return {};
  }
  std::string message = options.lock + " is out of date against " + manifest_path.string() +
                        "; run 'envlock lock' and build again (nothing was built):";
  for (const auto& line : drifts) {
    message += "\n  " + line;
  }
  return check_failed(std::move(message));
}

Result<ExitCode> run_build_command(const BuildCliOptions& options) {
  ENVLOCK_TRY_ASSIGN(const std::optional<pv::Key> key, attest_key(options));
  build::BuildRequest request;
  request.context.lock_path = options.lock;
  if (!options.template_path.empty()) {
    request.context.template_path = options.template_path;
  }
  if (!options.megatron_repo.empty()) {
    request.context.options.megatron_repo = options.megatron_repo;
  }
  request.context.options.verifier =
      options.with_verifier ? build::Verifier::include : build::Verifier::omit;
  ENVLOCK_TRY_ASSIGN(const auto epoch, source_date_epoch_override(options.source_date_epoch));
  if (epoch) {
    request.context.options.source_date_epoch = epoch->value;
    if (const std::string note = epoch_note(epoch, std::nullopt); !note.empty()) {
      std::cerr << note << "\n";
    }
  }
  ENVLOCK_TRY_ASSIGN(request.builder, build::parse_builder(options.builder));
  request.push = options.push ? build::Push::yes : build::Push::no;
  request.isolation = options.isolation;
  request.insecure_registries = options.insecure_registries;
  for (auto& host : oci::insecure_registries_from_environment()) {
    request.insecure_registries.push_back(std::move(host));
  }
  if (!options.result.empty()) {
    request.result_path = options.result;
  }
  if (!options.quiet) {
    request.on_log = [](std::string_view text) { std::cerr << text << std::flush; };
  }
  ENVLOCK_TRY(check_lock_current(options));
  ENVLOCK_TRY_ASSIGN(const formats::BuildResult result, build::run_build(request));
  std::cout << "built " << result.repository << ":" << result.tag << "\n"
            << "  " << (result.pushed ? "pushed " : "image id ") << result.repository << "@"
            << result.digest << "\n"
            << "  context sha256 " << result.context_sha256 << ", SOURCE_DATE_EPOCH "
            << result.source_date_epoch << "\n"
            << "  wrote " << build::result_file(request).string() << "\n";
  if (!options.attest.empty()) {
    ENVLOCK_TRY(attach_to_build(options, request, result, key));
  }
  return ExitCode::ok;
}

Runner setup(CLI::App& app) {
  auto options = std::make_shared<BuildCliOptions>();
  const CLI::Option* lock =
      app.add_option("--lock", options->lock,
                     "The lock (default: envlock.lock.json, here or in a folder above)")
          ->type_name("FILE");
  app.add_option("--template", options->template_path,
                 "The Mustache template of the Dockerfile (as for envlock render)")
      ->type_name("FILE");
  app.add_flag("--with-verifier", options->with_verifier,
               "Also copy envlock-verify and the lock into the image (as for envlock render)");
  app.add_option("--megatron-repo", options->megatron_repo,
                 "A local clone holding the locked Megatron-LM commit (needed for a remote URL)")
      ->type_name("DIR");
  app.add_option("--builder", options->builder, "buildah (default), podman or docker")
      ->type_name("NAME");
  app.add_option("--isolation", options->isolation, "buildah/podman --isolation (default: chroot)")
      ->type_name("MODE");
  app.add_flag("--push", options->push, "Push the image to image.repository by tag");
  app.add_option("--result", options->result,
                 "Write the result here (default: build-result.json beside the lock)")
      ->type_name("FILE");
  app.add_option("--insecure-registry", options->insecure_registries,
                 "Let the builder use plain HTTP for this registry (HOST[:PORT]; repeatable)")
      ->type_name("HOST[:PORT]");
  app.add_option("--attest", options->attest,
                 "With --push: attach the signed provenance of the build and the image's SBOM "
                 "to the pushed image (provenance, sbom; comma-separated or repeated)")
      ->delimiter(',')
      ->type_name("KIND");
  app.add_option("--key", options->key,
                 "The private key that signs the attached provenance (default: "
                 "~/.config/envlock/signing.key)")
      ->type_name("FILE");
  app.add_flag("-q,--quiet", options->quiet, "Do not echo the build log (it is still saved)");
  add_source_date_epoch_option(app, options->source_date_epoch,
                               "SOURCE_DATE_EPOCH and --timestamp of the build, and the context's "
                               "mtimes (default: SOURCE_DATE_EPOCH, else the lock's)");
  cmdline::set_footer(app, "envlock build --push", "docs/manual/build.md");
  return [options, lock] {
    find_in_parents(lock, options->lock);
    return run_build_command(*options);
  };
}

} // namespace

CommandSpec spec() {
  return {"build", "Build (and push) the image of the lock; write build-result.json", setup};
}

} // namespace envlock::cli::build_command
