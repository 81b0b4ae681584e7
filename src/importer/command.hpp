// The importer's two commands as Pyxis runs them, shared by `envlock importer` (src/cli) and the
// lean `envlock-importer` executable (src/importer_main.cpp): `get URI` prints the checked .sqsh's
// absolute path, alone, on standard output; everything else goes to standard error.
#pragma once

#include "util/result.hpp"

#include <string>

namespace envlock::importer {

// get URI, with the configuration of config_path() and the job step of the environment.
Result<ExitCode> run_get(const std::string& uri);

// release, likewise.
Result<ExitCode> run_release();

// envlock-importer's main: parses `get URI` / `release`, runs it, prints errors as
// "envlock: error: MESSAGE" and returns the exit code (docs/manual/importer.md).
int importer_main(int argc, char** argv);

} // namespace envlock::importer
