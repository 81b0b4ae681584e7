// `envlock render`: writes the Dockerfile of the lock (docs/manual/render.md).
#include "build/render.hpp"
#include "cli/commands.hpp"
#include "cli/project_files.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "util/fs.hpp"

#include <iostream>
#include <memory>

namespace envlock::cli::render_command {

namespace {

struct RenderOptions {
  std::string lock = "envlock.lock.json";
  std::string output;        // empty: standard output
  std::string template_path; // empty: the default template
  bool with_verifier = false;
  std::string megatron_repo; // empty: sources.megatron.git when it is a local path
};

Result<ExitCode> run_render(const RenderOptions& options) {
  build::RenderRequest request;
  request.lock_path = options.lock;
  if (!options.template_path.empty()) {
    request.template_path = options.template_path;
  }
  request.verifier = options.with_verifier ? build::Verifier::include : build::Verifier::omit;
  if (!options.megatron_repo.empty()) {
    request.megatron_repo = options.megatron_repo;
  }
  ENVLOCK_TRY_ASSIGN(const std::string dockerfile, build::render_file(request));
  if (options.output.empty()) {
    std::cout << dockerfile << std::flush;
    if (!std::cout) {
      return env_error("cannot write the Dockerfile to standard output");
    }
    return ExitCode::ok;
  }
  ENVLOCK_TRY(util::write_file_atomic(options.output, dockerfile));
  return ExitCode::ok;
}

Runner setup(CLI::App& app) {
  auto options = std::make_shared<RenderOptions>();
  const CLI::Option* lock =
      app.add_option("--lock", options->lock,
                     "The lock to render (default: envlock.lock.json, here or in a folder above)")
          ->type_name("FILE");
  cmdline::add_output_option(app, options->output,
                             "Write the Dockerfile to this file, atomically; - for standard "
                             "output (default: standard output)");
  app.add_option("--template", options->template_path,
                 "A Mustache template to render instead of the default (templates/"
                 "Dockerfile.mustache, or Dockerfile.upstream.mustache for an upstream recipe)")
      ->type_name("FILE");
  app.add_flag("--with-verifier", options->with_verifier,
               "Also copy envlock-verify and the lock into the image (from the build context)");
  app.add_option("--megatron-repo", options->megatron_repo,
                 "A local clone holding sources.megatron's commit, to read an upstream recipe of a "
                 "remote repository")
      ->type_name("DIR");
  cmdline::set_footer(app, "envlock render --with-verifier -o Dockerfile", "docs/manual/render.md");
  return [options, lock] {
    find_in_parents(lock, options->lock);
    return run_render(*options);
  };
}

} // namespace

CommandSpec spec() {
  return {"render", "Write the Dockerfile of the lock, every reference pinned", setup};
}

} // namespace envlock::cli::render_command
