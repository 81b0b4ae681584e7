// `envlock importer log`: the audit log read back (audit_log.hpp), filtered by job, node or
// command, as a table or as JSON: "which image did job 1234 run?".
#pragma once

#include "util/result.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace envlock::importer {

struct LogQuery {
  std::string log;     // the audit log; empty: the one the configuration names
  std::string job;     // empty: every job
  std::string node;    // empty: every node
  std::string command; // empty: every command
  std::string format = "text";
};

// Adds --log, --job, --node, --command and --format to `app`.
void add_log_options(CLI::App& app, LogQuery& query);

// Prints the matching entries, oldest first: one line each ("text"), or a JSON array of the
// entries ("json"). Lines that are not entries are named on standard error. Exit 0; 1 when no
// entry matches; an input error when the log cannot be read or none is configured.
Result<ExitCode> run_log(const LogQuery& query);

} // namespace envlock::importer
