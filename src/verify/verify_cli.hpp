// The verifier's command line, shared by `envlock-verify` and `envlock verify`.
#pragma once

#include <CLI/CLI.hpp>

namespace envlock::verify {

// The whole envlock-verify program: parse argv, run the checks, print and write the reports.
// Returns the process exit code (0 all pass, 1 any failure, 2 usage or input error).
int verify_main(int argc, char** argv);

} // namespace envlock::verify
