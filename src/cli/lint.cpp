// `envlock lint [FILE...]`: reports what in Dockerfiles breaks reproducibility, as text, JSON or
// SARIF (docs/manual/lint.md).
#include "build/lint/lint.hpp"
#include "build/lint/report.hpp"
#include "cli/commands.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"

#include <memory>

namespace envlock::cli::lint_command {

namespace {

constexpr std::uintmax_t k_dockerfile_limit = std::uintmax_t{1} << 20;
const std::vector<std::string> k_formats{"text", "json", "sarif"};

struct LintOptions {
  std::vector<std::string> files;
  std::string format; // text, json or sarif; empty: by -o's extension, else text
  std::string output; // empty: standard output
};

Result<ExitCode> run_lint(const LintOptions& o) {
  const std::vector<std::string> files =
      o.files.empty() ? std::vector<std::string>{"Dockerfile"} : o.files;
  std::vector<build::LintedFile> linted;
  for (const auto& file : files) {
    ENVLOCK_TRY_ASSIGN(const std::string text, util::read_input(file, k_dockerfile_limit));
    linted.push_back({file, build::lint_dockerfile(text)});
  }
  const std::string format =
      !o.format.empty() ? o.format
                        : cmdline::format_for_extension(o.output, k_formats).value_or("text");
  std::string report;
  if (format == "json") {
    report = util::canonical_json(build::lint_report_json(linted));
  } else if (format == "sarif") {
    report = util::canonical_json(build::lint_report_sarif(linted, ENVLOCK_VERSION));
  } else {
    report = build::lint_report_text(linted);
  }
  ENVLOCK_TRY(cmdline::write_output(o.output, report));
  return build::lint_error_count(linted) == 0 ? ExitCode::ok : ExitCode::failed;
}

Runner setup(CLI::App& app) {
  auto o = std::make_shared<LintOptions>();
  app.add_option("files", o->files,
                 "The Dockerfiles to check (default: Dockerfile; - reads standard input)");
  cmdline::add_format_option(app, o->format, k_formats,
                             "default: by -o's extension (.json, .sarif), else text");
  cmdline::add_output_option(app, o->output,
                             "Write the findings here; - for standard output (default: standard "
                             "output)");
  cmdline::set_footer(app,
                      "envlock lint Dockerfile docker/*.Dockerfile --format sarif -o lint.sarif",
                      "docs/manual/lint.md");
  return [o] { return run_lint(*o); };
}

} // namespace

CommandSpec spec() {
  return {"lint", "Report what in Dockerfiles breaks reproducibility, with file:line", setup};
}

} // namespace envlock::cli::lint_command
