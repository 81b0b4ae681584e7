// `envlock build`: builds (and with --push pushes) the image of the lock and writes
// build-result.json (docs/manual/build.md).
#include "build/build_run.hpp"
#include "cli/commands.hpp"
#include "cli/project_files.hpp"
#include "cli/source_date_epoch.hpp"
#include "cmdline/help.hpp"
#include "oci/session.hpp"

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
};

Result<ExitCode> run_build_command(const BuildCliOptions& options) {
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
  ENVLOCK_TRY_ASSIGN(const formats::BuildResult result, build::run_build(request));
  std::cout << "built " << result.repository << ":" << result.tag << "\n"
            << "  " << (result.pushed ? "pushed " : "image id ") << result.repository << "@"
            << result.digest << "\n"
            << "  context sha256 " << result.context_sha256 << ", SOURCE_DATE_EPOCH "
            << result.source_date_epoch << "\n"
            << "  wrote " << build::result_file(request).string() << "\n";
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
