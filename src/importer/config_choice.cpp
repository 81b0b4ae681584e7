#include "importer/config_choice.hpp"

#include "importer/trusted_path.hpp"

#include <array>
#include <cstdlib>
#include <unistd.h>

namespace envlock::importer {

namespace {

constexpr std::array<const char*, 6> k_job_markers = {"SLURM_JOB_ID",  "SLURM_JOBID",
                                                      "SLURM_STEP_ID", "SLURM_JOB_UID",
                                                      "PYXIS_VERSION", "PYXIS_RUNTIME_PATH"};

Status check_named_paths(const ImporterConfig& config) {
  for (const auto& entry : config.locks) {
    ENVLOCK_TRY(require_trusted(entry, "the lock entry"));
  }
  if (!config.public_key.empty()) {
    ENVLOCK_TRY(require_trusted(config.public_key, "the public key"));
  }
  return {};
}

} // namespace

std::optional<std::string> process_variable(const std::string& name) {
  const char* value = std::getenv(name.c_str()); // NOLINT(concurrency-mt-unsafe): no threads yet
  if (value == nullptr) {
    return std::nullopt;
  }
  return std::string(value);
}

std::optional<std::string> job_marker(const EnvironmentLookup& lookup) {
  for (const char* name : k_job_markers) {
    if (const auto value = lookup(name); value && !value->empty()) {
      return std::string(name);
    }
  }
  return std::nullopt;
}

ConfigChoice choose_config(const EnvironmentLookup& lookup) {
  ConfigChoice choice;
  const auto variable = lookup(k_config_variable);
  const bool has_variable = variable && !variable->empty();
  if (const auto marker = job_marker(lookup)) {
    choice.file = k_default_config;
    choice.source = ConfigSource::job;
    choice.why = "the system's, read under a Slurm job (" + *marker + " is set)";
    if (has_variable) {
      choice.ignored = *variable;
      choice.why += "; " + std::string(k_config_variable) + " is ignored there";
    }
    return choice;
  }
  if (has_variable) {
    choice.file = *variable;
    choice.source = ConfigSource::variable;
    choice.why = "chosen by " + std::string(k_config_variable);
    return choice;
  }
  choice.file = k_default_config;
  choice.why = "the default; " + std::string(k_config_variable) + " is unset";
  return choice;
}

Result<ImporterConfig> load_config(const ConfigChoice& choice) {
  const std::string prefix = "importer configuration (" + choice.why + "): ";
  // The system's file speaks for the operator: under a job, and whenever root reads it (the
  // prolog, the health check's scan, a fill), whose decisions are for every user of the node.
  const bool system = choice.source == ConfigSource::job ||
                      (choice.source == ConfigSource::default_file && ::geteuid() == 0);
  if (system) {
    if (auto problem = untrusted_because(choice.file)) {
      return env_error(prefix + *problem +
                       "; it must be owned by root and writable by no one else, with every "
                       "folder above it");
    }
  }
  auto config = read_config(choice.file);
  if (!config) {
    return with_prefix(config.error(), prefix);
  }
  config->choice = choice.why;
  config->trust = system ? Trust::system : Trust::caller;
  if (config->trust == Trust::system) {
    if (auto checked = check_named_paths(*config); !checked) {
      return with_prefix(checked.error(), prefix);
    }
  }
  return config;
}

} // namespace envlock::importer
