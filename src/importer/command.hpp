// The importer's commands, shared by `envlock importer` (src/cli) and the lean `envlock-importer`
// executable (src/importer_main.cpp):
//   get URI    (Pyxis) prints the checked .sqsh's absolute path, alone, on standard output;
//   release    (Pyxis) ends the job step's use of its images; never fails for a configuration;
//   check URI  (the prolog, root) the policy applied to the job's image, before the job;
//   fill URI   (the prolog or fleet distribute, root) the image put in the shared cache;
//   scan       (the health check, root) the corrupt pre-distributed images;
//   log        the audit log read back: which image each job ran.
// Everything but get's path goes to standard error. Each get, release, check and fill leaves one
// audit line (audit_log.hpp).
#pragma once

#include "util/result.hpp"

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace envlock::importer {

// Adds the subcommands to `app`; the runner runs the one parsed.
std::function<Result<ExitCode>()> add_importer_commands(CLI::App& app, const std::string& program);

// envlock-importer's main: parses the command line, runs it, prints errors as
// "envlock: error: MESSAGE" and returns the exit code (docs/manual/importer.md).
int importer_main(int argc, char** argv);

} // namespace envlock::importer
