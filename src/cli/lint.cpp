// `envlock lint`: reports what in a Dockerfile breaks reproducibility (docs/manual/lint.md).
#include "build/lint.hpp"
#include "cli/command.hpp"
#include "util/fs.hpp"

#include <iostream>
#include <memory>

namespace envlock::cli {

namespace {

Result<ExitCode> run_lint(const std::string& path) {
  ENVLOCK_TRY_ASSIGN(const std::string text, util::read_input(path, std::uintmax_t{1} << 20));
  const auto findings = build::lint_dockerfile(text);
  std::size_t errors = 0;
  for (const auto& finding : findings) {
    std::cout << build::format_finding(path, finding) << "\n";
    errors += finding.severity == build::Severity::error ? 1 : 0;
  }
  const std::size_t warnings = findings.size() - errors;
  std::cout << path << ": " << errors << (errors == 1 ? " error, " : " errors, ") << warnings
            << (warnings == 1 ? " warning" : " warnings") << "\n";
  return errors == 0 ? ExitCode::ok : ExitCode::failed;
}

Runner setup(CLI::App& app) {
  auto path = std::make_shared<std::string>("Dockerfile");
  app.add_option("dockerfile", *path,
                 "The Dockerfile to check (default: Dockerfile; - reads standard input)");
  return [path] { return run_lint(*path); };
}

const RegisterCommand k_register{
    {"lint", "Report what in a Dockerfile breaks reproducibility, with file:line", setup}};

} // namespace

} // namespace envlock::cli
