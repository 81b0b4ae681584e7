// Holds: how the cache knows an image is in use. Pyxis calls `get` when a job step starts and
// `release` when it is done with the image (after `enroot create` has unpacked it, or at task
// cleanup when it runs the container straight from the .sqsh), with SLURM_JOB_ID and
// SLURM_STEP_ID in the environment both times. `get` leaves an empty file holds/JOB.STEP.KEY and
// `release` removes the job step's holds, so it can be called any number of times. Eviction never
// removes an image with a hold younger than hold_expiry_seconds (a node that crashed never calls
// release; an expired hold is ignored, and removed by the next eviction).
#pragma once

#include "importer/cache.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <string>

namespace envlock::importer {

// The job step a get or release belongs to, from SLURM_JOB_ID and SLURM_STEP_ID.
struct JobStep {
  std::string job;  // empty outside a Slurm job
  std::string step; // "none" when SLURM_STEP_ID is unset
};

// The job step of this process's environment. Characters other than letters, digits, '_' and
// '-' are replaced by '_', so that the names make safe file names.
JobStep job_step_from_environment();

// Records that `step` uses the image of `key`; nothing outside a Slurm job.
Status add_hold(const Cache& cache, const JobStep& step, const std::string& key);

// Removes every hold of `step`; returns how many there were. Missing holds are fine.
int release_holds(const Cache& cache, const JobStep& step);

// Whether a hold younger than `expiry_seconds` names `key`.
bool is_held(const Cache& cache, const std::string& key, std::int64_t expiry_seconds);

// Removes holds older than `expiry_seconds`.
void remove_expired_holds(const Cache& cache, std::int64_t expiry_seconds);

} // namespace envlock::importer
