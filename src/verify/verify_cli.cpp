#include "verify/verify_cli.hpp"

#include "util/fs.hpp"
#include "util/strings.hpp"
#include "verify/report/report.hpp"
#include "verify/resume/options.hpp"
#include "verify/run.hpp"

#include <exception>
#include <iostream>
#include <unistd.h>

namespace envlock::verify {

void add_verify_options(CLI::App& app, VerifyOptions& options) {
  app.add_option("--lock", options.lock_path,
                 "The lock to check against (default: /etc/envlock/lock.json, under --root when "
                 "given)");
  app.add_option("--root", options.root,
                 "Check an unpacked image or mounted squashfs at DIR without running it");
  app.add_option("--json", options.json_path, "Write the report as JSON (envlock.report/v1)");
  app.add_option("--junit", options.junit_path, "Write the report as JUnit XML");
  app.add_flag("--no-gpu", options.no_gpu, "Skip the GPU and driver checks (reported as skipped)");
  app.add_flag("--deep", options.deep,
               "Also hash every installed file named in the packages' RECORD files");
  app.add_option("--host-facts", options.host_facts,
                 "The host's facts (JSON from `envlock node`) to compare the visible GPUs with");
  app.add_option("--image-digest", options.image_digest,
                 "The digest of the image this node runs (sha256:...), for the report's chain");
  app.add_option("--sqsh", options.sqsh,
                 "The .sqsh the image came from: its sha256 (from the importer's record beside "
                 "it, else hashed) and image digest go into the report");
  app.add_option("--site-packages", options.site_packages,
                 "A site-packages folder to check instead of the ones found (repeatable)");
  app.add_option("--check", options.checks,
                 "Run only these check groups (repeatable): " + util::join(check_groups(), ", "))
      ->delimiter(',');
  app.add_flag("--quick", options.quick, "Smaller GPU workloads (for tests)");
  app.add_option("--devices", options.devices, "GPU indices to check, e.g. 0,1 (default: all)");
  add_resume_options(app, options.resume);
  add_checkpoint_load_options(app, options.checkpoint_load);
}

Result<ExitCode> verify(const VerifyOptions& options) {
  // A bad output path is reported before any check runs; a report sent to standard output moves
  // the table to standard error.
  bool report_on_stdout = false;
  for (const std::filesystem::path& path : {options.json_path, options.junit_path}) {
    if (!path.empty()) {
      ENVLOCK_TRY_ASSIGN(const util::OutputTarget target, util::output_target(path));
      report_on_stdout = report_on_stdout || target.inherited_fd == STDOUT_FILENO;
    }
  }
  ENVLOCK_TRY_ASSIGN(const Report report, run_verification(options));
  std::ostream& table = report_on_stdout ? std::cerr : std::cout;
  const int table_fd = report_on_stdout ? STDERR_FILENO : STDOUT_FILENO;
  const Colour colour = ::isatty(table_fd) != 0 ? Colour::on : Colour::off;
  table << report_to_table(report, colour) << std::flush;
  if (!options.json_path.empty()) {
    ENVLOCK_TRY(write_json_report(options.json_path, report));
  }
  if (!options.junit_path.empty()) {
    ENVLOCK_TRY(write_junit_report(options.junit_path, report));
  }
  return summarize(report.checks).failed > 0 ? ExitCode::failed : ExitCode::ok;
}

int run_verify(const VerifyOptions& options) {
  try {
    Result<ExitCode> result = verify(options);
    if (!result) {
      std::cerr << "envlock-verify: error: " << result.error().message << "\n";
      return static_cast<int>(result.error().code);
    }
    return static_cast<int>(*result);
  } catch (const std::exception& e) {
    std::cerr << "envlock-verify: internal error: " << e.what() << "\n";
    return static_cast<int>(ExitCode::environment);
  }
}

int verify_main(int argc, char** argv) {
  CLI::App app{"envlock-verify: check this node or container against an envlock lock",
               "envlock-verify"};
  app.set_version_flag("--version", std::string("envlock-verify ") + ENVLOCK_VERSION);
  VerifyOptions options;
  add_verify_options(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "envlock-verify: error: " << e.what() << "\n";
    std::cerr << "Run 'envlock-verify --help' for usage.\n";
    return static_cast<int>(ExitCode::usage);
  }
  return run_verify(options);
}

} // namespace envlock::verify
