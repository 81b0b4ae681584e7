#include "verify/verify_cli.hpp"

#include "cmdline/colour.hpp"
#include "cmdline/output.hpp"
#include "cmdline/program.hpp"
#include "util/fs.hpp"
#include "util/interrupt.hpp"
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
                 "given)")
      ->type_name("FILE");
  app.add_option("--root", options.root,
                 "Check an unpacked image or mounted squashfs at DIR without running it")
      ->type_name("DIR");
  cmdline::add_format_option(app, options.format, {"text", "json", "junit"},
                             "default: by -o's extension (.json, .xml), else text: the table");
  cmdline::add_output_option(app, options.output,
                             "Write the report here (default: standard output); the table goes "
                             "to standard output then, or to standard error for -o -");
  cmdline::add_old_option(app, "--json", "FILE", "--format json -o FILE",
                          [&options](const std::string& path) { options.json_path = path; });
  // A CI's second report beside -o's (as pytest's --junitxml), so it stays.
  app.add_option("--junit", options.junit_path,
                 "Also write the report as JUnit XML to FILE (for CI, beside -o's report)")
      ->type_name("FILE");
  cmdline::add_colour_option(app, options.colour);
  app.add_flag("--no-gpu", options.no_gpu, "Skip the GPU and driver checks (reported as skipped)");
  app.add_flag("--deep", options.deep,
               "Also hash every installed file named in the packages' RECORD files");
  app.add_option("--host-facts", options.host_facts,
                 "The host's facts (JSON from `envlock node`) to compare the visible GPUs with")
      ->type_name("FILE");
  app.add_option("--image-digest", options.image_digest,
                 "The digest of the image this node runs (sha256:...), for the report's chain")
      ->type_name("DIGEST");
  app.add_option("--sqsh", options.sqsh,
                 "The .sqsh the image came from: its sha256 (from the importer's record beside "
                 "it, else hashed) and image digest go into the report")
      ->type_name("FILE");
  app.add_option("--site-packages", options.site_packages,
                 "A site-packages folder to check instead of the ones found (repeatable)")
      ->type_name("DIR");
  app.add_option("--check", options.checks,
                 "Run only these check groups (repeatable): " + util::join(check_groups(), ", "))
      ->delimiter(',')
      ->type_name("GROUP");
  app.add_flag("--quick", options.quick,
               "Leave out what only measures: the GEMM timing, the links and the all-reduce "
               "(unless --check names them)");
  app.add_option("--devices", options.devices, "GPU indices to check, e.g. 0,1 (default: all)")
      ->type_name("LIST");
  app.add_option("--sdc-seconds", options.sdc.seconds,
                 "The SDC check's time budget per GPU, in seconds (default 45; --quick: 1.5)")
      ->type_name("S");
  app.add_option("--sdc-steps", options.sdc.steps,
                 "Run the SDC chain for N steps (rounded up to a digest) instead of a time budget")
      ->type_name("N");
  // The stand-ins' chain shape and the fault injection are for tests and benchmarks only.
  app.add_option("--sdc-shape", options.sdc.shape)->group("");
  app.add_option("--inject-bitflip", options.sdc.inject)->group("");
  add_resume_options(app, options.resume);
  add_checkpoint_load_options(app, options.checkpoint_load);
}

namespace {

// Where the report of --format goes, and in which format.
struct MainOutput {
  std::string format; // text, json or junit
  std::string path;   // "-" for standard output
};

MainOutput main_output(const VerifyOptions& options) {
  MainOutput out;
  out.path = options.output.empty() ? "-" : options.output;
  out.format = options.format;
  if (out.format.empty()) {
    out.format =
        cmdline::format_for_extension(options.output, {"text", "json", "junit"}).value_or("text");
  }
  return out;
}

Status write_report(const MainOutput& out, const Report& report) {
  if (out.format == "json") {
    return write_json_report(out.path, report);
  }
  return write_junit_report(out.path, report);
}

} // namespace

Result<ExitCode> verify(const VerifyOptions& options) {
  // A bad output path is reported before any check runs; a report sent to standard output moves
  // the table to standard error.
  const MainOutput out = main_output(options);
  bool report_on_stdout = false;
  for (const std::filesystem::path& path : {options.json_path, options.junit_path}) {
    if (!path.empty()) {
      ENVLOCK_TRY_ASSIGN(const util::OutputTarget target, util::output_target(path));
      report_on_stdout = report_on_stdout || target.inherited_fd == STDOUT_FILENO;
    }
  }
  ENVLOCK_TRY_ASSIGN(const util::OutputTarget main_target, util::output_target(out.path));
  const bool main_on_stdout = main_target.inherited_fd == STDOUT_FILENO;
  if (out.format != "text") {
    report_on_stdout = report_on_stdout || main_on_stdout;
  }
  ENVLOCK_TRY_ASSIGN(const Report report, run_verification(options));
  if (out.format == "text" && !main_on_stdout) {
    // The table is the output, to a file: coloured only with --color=always.
    const bool colour = cmdline::use_colour(options.colour, -1);
    ENVLOCK_TRY(cmdline::write_output(out.path,
                                      report_to_table(report, colour ? Colour::on : Colour::off)));
  } else {
    std::ostream& table = report_on_stdout ? std::cerr : std::cout;
    const int table_fd = report_on_stdout ? STDERR_FILENO : STDOUT_FILENO;
    const Colour colour = cmdline::use_colour(options.colour, table_fd) ? Colour::on : Colour::off;
    table << report_to_table(report, colour) << std::flush;
  }
  if (out.format != "text") {
    ENVLOCK_TRY(write_report(out, report));
  }
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

int verify_main(int argc, char** argv, OpenGpuSampler open_sampler) {
  CLI::App app{"envlock-verify: check this node or container against an envlock lock",
               "envlock-verify"};
  cmdline::set_up_program(app, "envlock-verify --check packages,torch --format json -o report.json",
                          "docs/manual/verify.md");
  VerifyOptions options;
  options.open_gpu_sampler = std::move(open_sampler);
  add_verify_options(app, options);
  if (const auto exit_code = cmdline::parse(app, argc, argv)) {
    return *exit_code;
  }
  util::install_interrupt_handlers();
  const int code = run_verify(options);
  std::cout << std::flush;
  return util::exit_after(code, false, "envlock-verify");
}

} // namespace envlock::verify
