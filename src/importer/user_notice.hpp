// Telling the job's user what a successful get warned about. Pyxis keeps the importer's standard
// error in memory and prints it (each line prefixed "pyxis:") only when get exits non-zero; on
// success it is dropped (importer.c). So on success the warnings go through Slurm instead:
// `scontrol notify JOB MESSAGE`, which any job's owner may send to their own job and which Slurm
// writes to the job's standard error (a batch job's output, the terminal of srun or salloc), where
// Pyxis's own lines appear too.
#pragma once

#include <string>
#include <vector>

namespace envlock::importer {

// Sends "envlock importer: warning: W" for each warning (one notification, lines joined with
// "; ") to job `job`, waiting at most a few seconds. Nothing when `job` or `warnings` is empty.
// Returns why it could not, or nothing.
std::string notify_job(const std::string& job, const std::vector<std::string>& warnings);

} // namespace envlock::importer
