// The verifier's command line, shared by `envlock-verify` and `envlock verify`.
#pragma once

#include "util/result.hpp"
#include "verify/options.hpp"

#include <CLI/CLI.hpp>

namespace envlock::verify {

// Adds the verifier's options to `app`, storing them in `options` (which must outlive parsing).
void add_verify_options(CLI::App& app, VerifyOptions& options);

// Runs the checks and writes the report of --format to -o (the table to standard output by
// default; coloured as --color and NO_COLOR say), and the old --json and --junit files. Returns
// ExitCode::ok when every check passed or was skipped, ExitCode::failed when one failed; an error
// for bad options or an unreadable lock (exit 2) or an unwritable report (exit 3).
Result<ExitCode> verify(const VerifyOptions& options);

// verify(), with an error printed as "envlock-verify: error: ..."; returns the exit code.
int run_verify(const VerifyOptions& options);

// The whole envlock-verify program: parse argv, then run_verify. Returns the process exit code
// (0 all pass, 1 any failure, 2 usage or input error, 3 environment error).
// `open_sampler` opens the SDC check's GPU sampler (empty: the check samples nothing).
int verify_main(int argc, char** argv, OpenGpuSampler open_sampler = {});

} // namespace envlock::verify
