// Which importer.yaml a run reads, and why: the policy is the operator's. Pyxis runs the importer
// with the job's environment, which its user controls, so under a Slurm job (any of SLURM_JOB_ID,
// SLURM_JOBID, SLURM_STEP_ID, SLURM_JOB_UID, PYXIS_VERSION or PYXIS_RUNTIME_PATH set; Pyxis sets
// the last two itself) only /etc/envlock/importer.yaml is read, it must be owned by root and
// writable by no one else (with every folder above it), and ENVLOCK_IMPORTER_CONFIG is ignored.
// Outside a job (an operator trying a configuration) the variable still chooses the file.
#pragma once

#include "importer/config.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace envlock::importer {

// Where the choice came from.
enum class ConfigSource { default_file, variable, job };

struct ConfigChoice {
  std::filesystem::path file;
  ConfigSource source = ConfigSource::default_file;
  std::string why;     // for messages: "ENVLOCK_IMPORTER_CONFIG", "the default", ...
  std::string ignored; // under a job: the ENVLOCK_IMPORTER_CONFIG value that was ignored
};

// A variable of the environment the choice is made from; nothing when unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string& name)>;

// This process's environment.
std::optional<std::string> process_variable(const std::string& name);

// The first of the variables that mark a Slurm job that is set (its name), if any.
std::optional<std::string> job_marker(const EnvironmentLookup& lookup);

// The file to read and why, from the environment `lookup` gives.
ConfigChoice choose_config(const EnvironmentLookup& lookup = process_variable);

// Reads the chosen file. Under a job, and when root reads the default file, it must be safe
// (trusted_path.hpp), and so must the locks and the public key it names (Trust::system). Every
// error is prefixed "importer configuration (WHY): ", so that it says which file and what chose it.
Result<ImporterConfig> load_config(const ConfigChoice& choice);

} // namespace envlock::importer
