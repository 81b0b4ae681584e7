#include "fleet/slurm.hpp"

#include "fleet/hostlist.hpp"
#include "util/process.hpp"
#include "util/strings.hpp"

namespace envlock::fleet {

namespace {

// Runs a Slurm command; a non-zero exit is an environment error with its message.
Result<std::string> slurm_command(const std::vector<std::string>& argv) {
  ENVLOCK_TRY_ASSIGN(const auto result, util::run_process(argv));
  if (result.exit_code != 0) {
    const std::string message{util::trim(result.err.empty() ? result.out : result.err)};
    return env_error(argv.front() + " failed (exit " + std::to_string(result.exit_code) +
                     "): " + message);
  }
  return result.out;
}

// The value of KEY= in a line of space-separated KEY=VALUE words.
std::string word_value(const std::string& line, const std::string& key) {
  for (const auto& word : util::split(line, ' ')) {
    if (word.rfind(key + "=", 0) == 0) {
      return word.substr(key.size() + 1);
    }
  }
  return {};
}

} // namespace

Result<std::string> submit_batch(const std::filesystem::path& script) {
  ENVLOCK_TRY_ASSIGN(const std::string out,
                     slurm_command({"sbatch", "--parsable", script.string()}));
  // --parsable prints "JOBID" or "JOBID;CLUSTER".
  const std::string id = util::split(std::string(util::trim(out)), ';').front();
  if (id.empty()) {
    return env_error("sbatch printed no job id");
  }
  return id;
}

JobState parse_job_line(const std::string& line) {
  return {word_value(line, "JobState"), word_value(line, "Reason")};
}

Result<JobState> job_state(const std::string& job_id) {
  ENVLOCK_TRY_ASSIGN(const auto result,
                     util::run_process({"scontrol", "show", "job", "-o", job_id}));
  if (result.exit_code != 0) {
    if (result.err.find("Invalid job id") != std::string::npos) {
      return JobState{"PURGED", "None"};
    }
    return env_error("scontrol show job " + job_id +
                     " failed: " + std::string(util::trim(result.err)));
  }
  return parse_job_line(result.out);
}

bool job_finished(const JobState& state) {
  for (const char* active :
       {"PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING"}) {
    if (state.state == active) {
      return false;
    }
  }
  return true;
}

bool cancel_job(const std::string& job_id) {
  util::ProcessOptions options;
  options.when_interrupted = true; // cancelling is what an interrupted wait does
  const auto result = util::run_process({"scancel", job_id}, options);
  return result && result->exit_code == 0;
}

std::map<std::string, NodeState> parse_node_states(const std::string& text) {
  std::map<std::string, NodeState> out;
  for (const auto& line : util::split(text, '\n')) {
    const auto fields = util::split(line, '|');
    if (fields.size() < 3 || fields[0].empty()) {
      continue;
    }
    const std::string reason{util::trim(fields[2])};
    out[fields[0]] = {std::string(util::trim(fields[1])), reason == "none" ? "" : reason};
  }
  return out;
}

Result<std::map<std::string, NodeState>> node_states() {
  ENVLOCK_TRY_ASSIGN(const std::string out, slurm_command({"sinfo", "-h", "-N", "-o", "%N|%T|%E"}));
  return parse_node_states(out);
}

Result<std::vector<std::string>> partition_nodes(const std::string& partition) {
  ENVLOCK_TRY_ASSIGN(const std::string out,
                     slurm_command({"sinfo", "-h", "-p", partition, "-o", "%N"}));
  std::vector<std::string> nodes;
  for (const auto& line : util::split(out, '\n')) {
    if (util::trim(line).empty()) {
      continue;
    }
    ENVLOCK_TRY_ASSIGN(auto names, expand_hostlist(line));
    nodes.insert(nodes.end(), names.begin(), names.end());
  }
  if (nodes.empty()) {
    return input_error("partition '" + partition + "' has no nodes");
  }
  sort_nodes(nodes);
  return nodes;
}

} // namespace envlock::fleet
