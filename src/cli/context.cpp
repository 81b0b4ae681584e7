// `envlock context`: writes the build context of the lock as one reproducible tar
// (docs/manual/context.md).
#include "build/context.hpp"
#include "cli/commands.hpp"
#include "cli/project_files.hpp"
#include "cli/source_date_epoch.hpp"
#include "cli/status_stream.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"

#include <iostream>
#include <memory>

namespace envlock::cli::context_command {

namespace {

struct ContextCliOptions {
  std::string lock = "envlock.lock.json";
  std::string output = "context.tar";
  std::string template_path; // empty: the default template
  std::string megatron_repo; // empty: sources.megatron.git when it is a local path
  bool with_verifier = false;
  std::optional<std::int64_t> source_date_epoch;
};

Result<ExitCode> run_context(const ContextCliOptions& options) {
  build::ContextRequest request;
  request.lock_path = options.lock;
  if (!options.template_path.empty()) {
    request.template_path = options.template_path;
  }
  if (!options.megatron_repo.empty()) {
    request.options.megatron_repo = options.megatron_repo;
  }
  request.options.verifier =
      options.with_verifier ? build::Verifier::include : build::Verifier::omit;
  ENVLOCK_TRY_ASSIGN(const auto epoch, source_date_epoch_override(options.source_date_epoch));
  if (epoch) {
    request.options.source_date_epoch = epoch->value;
  }
  ENVLOCK_TRY_ASSIGN(const build::PreparedContext prepared, build::prepare_context(request));
  if (const std::string note = epoch_note(epoch, prepared.lock.enroot.source_date_epoch);
      !note.empty()) {
    std::cerr << note << "\n";
  }
  ENVLOCK_TRY_ASSIGN(const build::ContextTar tar,
                     build::write_context_file(prepared.plan, options.output));
  status_stream({options.output}) << tar.sha256 << "  " << options.output << "\n"
                                  << "  " << tar.entries << " entries, " << tar.size
                                  << " bytes, mtime " << prepared.plan.mtime << "\n";
  return ExitCode::ok;
}

Runner setup(CLI::App& app) {
  auto options = std::make_shared<ContextCliOptions>();
  const CLI::Option* lock =
      app.add_option("--lock", options->lock,
                     "The lock (default: envlock.lock.json, here or in a folder above)")
          ->type_name("FILE");
  cmdline::add_output_option(app, options->output,
                             "Write the tar to this file, atomically; - for standard output "
                             "(default: context.tar)");
  app.add_option("--template", options->template_path,
                 "The Mustache template of the Dockerfile (as for envlock render)")
      ->type_name("FILE");
  app.add_flag("--with-verifier", options->with_verifier,
               "Also put envlock-verify and the lock into the context (as for envlock render)");
  app.add_option("--megatron-repo", options->megatron_repo,
                 "A local clone holding the locked Megatron-LM commit (needed for a remote URL)")
      ->type_name("DIR");
  add_source_date_epoch_option(app, options->source_date_epoch,
                               "Every entry's mtime (default: SOURCE_DATE_EPOCH, else the lock's "
                               "enroot.source_date_epoch)");
  cmdline::set_footer(app, "envlock context -o context.tar", "docs/manual/context.md");
  return [options, lock] {
    find_in_parents(lock, options->lock);
    return run_context(*options);
  };
}

} // namespace

CommandSpec spec() {
  return {"context", "Write the build context of the lock as one reproducible tar", setup};
}

} // namespace envlock::cli::context_command
