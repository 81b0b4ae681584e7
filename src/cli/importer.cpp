// envlock importer get URI / envlock importer release: the Pyxis importer plugin
// (docs/manual/importer.md). Pyxis runs `IMPORTER get URI` and reads one line, the .sqsh's
// absolute path, from standard output; everything else goes to standard error, which Pyxis
// prints when the exit status is not 0. Installed as `envlock-importer` (a link to envlock),
// envlock runs this command without the word `importer`.
#include "importer/importer.hpp"
#include "cli/command.hpp"
#include "importer/config.hpp"

#include <iostream>
#include <memory>
#include <unistd.h>

namespace envlock::cli {

namespace {

Result<importer::Context> make_context() {
  ENVLOCK_TRY_ASSIGN(importer::ImporterConfig config,
                     importer::read_config(importer::config_path()));
  importer::Context context;
  context.config = std::move(config);
  context.step = importer::job_step_from_environment();
  context.uid = ::getuid();
  context.note = [](const std::string& line) { std::cerr << "envlock importer: " << line << "\n"; };
  return context;
}

Result<ExitCode> run_get(const std::string& uri) {
  ENVLOCK_TRY_ASSIGN(const importer::Context context, make_context());
  ENVLOCK_TRY_ASSIGN(const importer::GetOutcome outcome, importer::get(context, uri));
  context.note(std::string(importer::to_string(outcome.source)) +
               ", sha256 checked: " + outcome.sqsh.string());
  std::cout << outcome.sqsh.string() << "\n" << std::flush;
  if (!std::cout) {
    return env_error("cannot write to standard output");
  }
  return ExitCode::ok;
}

Result<ExitCode> run_release() {
  ENVLOCK_TRY_ASSIGN(const importer::Context context, make_context());
  ENVLOCK_TRY_ASSIGN(const int released, importer::release(context));
  if (context.step.job.empty()) {
    context.note("release: no SLURM_JOB_ID, nothing to release");
  } else {
    context.note("release: job " + context.step.job + " step " + context.step.step + ": " +
                 std::to_string(released) + " hold(s) released");
  }
  return ExitCode::ok;
}

const RegisterCommand k_register{{
    "importer",
    "The Pyxis importer: get a checked .sqsh for an image URI; release it",
    [](CLI::App& app) -> Runner {
      app.require_subcommand(1);
      auto uri = std::make_shared<std::string>();
      CLI::App* get = app.add_subcommand("get", "Print the path of the checked .sqsh of URI");
      get->add_option("uri", *uri,
                      "docker://[USER@][REGISTRY#]IMAGE[:TAG][@sha256:...] or a .sqsh path")
          ->required();
      CLI::App* release = app.add_subcommand("release", "End this job step's use of its images");
      return [get, release, uri]() -> Result<ExitCode> {
        if (get->parsed()) {
          return run_get(*uri);
        }
        if (release->parsed()) {
          return run_release();
        }
        return input_error("importer: get or release is required");
      };
    },
}};

} // namespace

} // namespace envlock::cli
