// The Slurm commands envlock drives (sbatch, scontrol, sinfo), run without a shell; their output
// parsed into small values. envlock never talks to slurmctld directly.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace envlock::fleet {

struct JobState {
  std::string state;  // PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, ...
  std::string reason; // Slurm's Reason= ("None" when there is none)
};

struct NodeState {
  std::string state;  // sinfo's %T: idle, allocated, drained, draining, down*, ...
  std::string reason; // why it is drained or down; empty otherwise
};

// Submits a batch script with `sbatch --parsable` and returns the job id. Fails with an
// environment error carrying sbatch's message when sbatch is missing or refuses the job.
Result<std::string> submit_batch(const std::filesystem::path& script);

// The job's state from `scontrol show job -o`; a job Slurm no longer knows counts as finished
// ("PURGED"). Fails with an environment error when scontrol cannot be run.
Result<JobState> job_state(const std::string& job_id);

// True once the job will run no more (any state but pending, running and their kin).
bool job_finished(const JobState& state);

// Cancels a job (scancel); false when scancel could not be run or refused (the job may have
// ended meanwhile, or Slurm may not answer).
bool cancel_job(const std::string& job_id);

// Every node's state and reason from `sinfo -N`, by node. Environment error without sinfo.
Result<std::map<std::string, NodeState>> node_states();

// The nodes of a partition (sinfo -p), in natural order; an input error when it has none.
Result<std::vector<std::string>> partition_nodes(const std::string& partition);

// Parses `scontrol show job -o` output (one line of KEY=VALUE words).
JobState parse_job_line(const std::string& line);

// Parses `sinfo -h -N -o '%N|%T|%E'` output.
std::map<std::string, NodeState> parse_node_states(const std::string& text);

} // namespace envlock::fleet
