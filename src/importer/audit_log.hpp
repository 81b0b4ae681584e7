// Where audit lines go and how they are read back. Each line is appended with one write(2) to an
// O_APPEND descriptor, so lines of concurrent gets on a node never mix, and is sent to syslog
// (ident envlock-importer, facility user; info, warning when the line carries a warning, err when
// the command did not end ok), where the system logger records which uid sent it. The importer
// never creates the log: the operator does, with the mode that lets users' gets append to it.
#pragma once

#include "importer/audit_record.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace envlock::importer {

// The entry's volatile facts from this process: the time now, the node (SLURMD_NODENAME, else
// the host name), the job and step (SLURM_JOB_ID, SLURM_STEP_ID), the uid and its user name.
AuditEntry new_audit_entry(const std::string& command);

// Appends the entry to `log` (when not empty) and sends it to syslog. Nothing when all is well;
// else why the log could not take it ("LOG: cannot append: Permission denied"), which never fails
// a command.
std::string append_audit(const std::filesystem::path& log, const AuditEntry& entry);

struct AuditLog {
  std::vector<AuditEntry> entries;   // in the order of the file
  std::vector<std::string> problems; // "LOG:LINE: why" for each line that is not an entry
};

// Reads every line of the log; an input error when it cannot be read.
Result<AuditLog> read_audit_log(const std::filesystem::path& log);

} // namespace envlock::importer
