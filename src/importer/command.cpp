#include "importer/command.hpp"

#include "cmdline/help.hpp"
#include "cmdline/program.hpp"
#include "importer/config.hpp"
#include "importer/importer.hpp"

#include <CLI/CLI.hpp>
#include <exception>
#include <iostream>
#include <unistd.h>

namespace envlock::importer {

namespace {

Result<Context> make_context() {
  ENVLOCK_TRY_ASSIGN(ImporterConfig config, read_config(config_path()));
  Context context;
  context.config = std::move(config);
  context.step = job_step_from_environment();
  context.uid = ::getuid();
  context.note = [](const std::string& line) { std::cerr << "envlock importer: " << line << "\n"; };
  return context;
}

} // namespace

Result<ExitCode> run_get(const std::string& uri) {
  ENVLOCK_TRY_ASSIGN(const Context context, make_context());
  ENVLOCK_TRY_ASSIGN(const GetOutcome outcome, get(context, uri));
  context.note(std::string(to_string(outcome.source)) +
               ", sha256 checked: " + outcome.sqsh.string());
  std::cout << outcome.sqsh.string() << "\n" << std::flush;
  if (!std::cout) {
    return env_error("cannot write to standard output");
  }
  return ExitCode::ok;
}

Result<ExitCode> run_release() {
  ENVLOCK_TRY_ASSIGN(const Context context, make_context());
  ENVLOCK_TRY_ASSIGN(const int released, release(context));
  if (context.step.job.empty()) {
    context.note("release: no SLURM_JOB_ID, nothing to release");
  } else {
    context.note("release: job " + context.step.job + " step " + context.step.step + ": " +
                 std::to_string(released) + " hold(s) released");
  }
  return ExitCode::ok;
}

int importer_main(int argc, char** argv) {
  CLI::App app{"envlock-importer: the Pyxis importer; a checked .sqsh for each job's image",
               "envlock-importer"};
  cmdline::set_up_program(app, "envlock-importer get docker://nvcr.io#nvidia/pytorch:26.06-py3",
                          "docs/manual/importer.md");
  app.require_subcommand(1);
  std::string uri;
  CLI::App* get_command = app.add_subcommand("get", "Print the path of the checked .sqsh of URI");
  get_command
      ->add_option("uri", uri,
                   "docker://[USER@][REGISTRY#]IMAGE[:TAG][@sha256:...] or a .sqsh path")
      ->required();
  cmdline::set_footer(*get_command,
                      "envlock-importer get docker://nvcr.io#nvidia/pytorch:26.06-py3",
                      "docs/manual/importer.md");
  CLI::App* release = app.add_subcommand("release", "End this job step's use of its images");
  cmdline::set_footer(*release, "envlock-importer release", "docs/manual/importer.md");
  if (const auto exit_code = cmdline::parse(app, argc, argv)) {
    return *exit_code;
  }
  try {
    Result<ExitCode> result = get_command->parsed() ? run_get(uri) : run_release();
    if (!result) {
      std::cerr << "envlock: error: " << result.error().message << "\n";
      return static_cast<int>(result.error().code);
    }
    return static_cast<int>(*result);
  } catch (const std::exception& e) {
    std::cerr << "envlock: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::environment);
  }
}

} // namespace envlock::importer
