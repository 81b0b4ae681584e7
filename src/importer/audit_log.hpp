// Where audit lines go and how they are read back. Every line is sent to syslog (ident
// envlock-importer, facility user; info, warning when the line carries a warning, err when the
// command did not end ok), where the system logger records the pid and uid the kernel gives for
// the sender (SCM_CREDENTIALS): the channel of a user's get and release, whose lines are that
// user's word. Root's steps (prolog check and fill, scan, root's own get) also append their line
// to the file `log:` names, with one write(2) to an O_APPEND descriptor, bounded in size, and only
// when the file is root's own regular file that no one else can write, in a folder every entry
// above which is root's (trusted_path.hpp); opened without following a link and without blocking
// (a FIFO is refused). No user ever writes the file. The importer never creates it.
#pragma once

#include "importer/audit_record.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace envlock::importer {

// The entry's volatile facts from this process: the time now (append_audit sets it again), the
// node (SLURMD_NODENAME, else the host name), the job and step (SLURM_JOB_ID, SLURM_STEP_ID;
// marked as the caller's claim unless the caller is root), the uid and its user name.
AuditEntry new_audit_entry(const std::string& command);

// Stamps the entry with the time now, sends it to syslog and, for root's steps, appends it to
// `log` (when not empty). Nothing when all is well; else why the log did not take it ("LOG: not
// written: LOG: writable (mode 0622) ..."), which never fails a command.
std::string append_audit(const std::filesystem::path& log, const AuditEntry& entry);

struct AuditLog {
  std::vector<AuditEntry> entries;   // in the order of the file
  std::vector<std::string> problems; // "LOG:LINE: why" for each line that is not an entry
};

// Reads every line of the log; an input error when it cannot be read.
Result<AuditLog> read_audit_log(const std::filesystem::path& log);

} // namespace envlock::importer
