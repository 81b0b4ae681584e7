#include "fleet/batch_script.hpp"

#include "template/store.hpp"
#include "util/shell_quote.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <cctype>

namespace envlock::fleet {

using util::shell_quote;

using nlohmann::json;

namespace {

bool has_space(const std::string& text) {
  return std::any_of(text.begin(), text.end(),
                     [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

// An #SBATCH value, refused when white space would split it.
Status check_sbatch_value(const std::string& option, const std::string& value) {
  if (has_space(value)) {
    return input_error(option + ": white space cannot be passed to #SBATCH lines: '" + value + "'");
  }
  return {};
}

// " --time=M" for srun: Slurm counts time limits in whole minutes, so seconds round up.
std::string step_time(const StepOptions& steps) {
  if (steps.step_seconds <= 0) {
    return "";
  }
  return " --time=" + std::to_string((steps.step_seconds + 59) / 60);
}

// The data both scripts share: job name, node count and list, output, pass-through options,
// the steps' parallelism and time limit.
Result<json> common_data(const std::string& job_name, const std::vector<std::string>& nodes,
                         const SlurmOptions& slurm, const std::filesystem::path& results,
                         const std::filesystem::path& script, const StepOptions& steps) {
  if (steps.parallel < 1) {
    return input_error("--parallel-steps: must be at least 1");
  }
  ENVLOCK_TRY(check_sbatch_value("--results", results.string()));
  json options = json::array();
  const std::vector<std::pair<const char*, const std::string*>> pass = {
      {"--partition", &slurm.partition},
      {"--account", &slurm.account},
      {"--qos", &slurm.qos},
      {"--time", &slurm.time},
      {"--reservation", &slurm.reservation}};
  const std::string nodelist = util::join(nodes, ",");
  ENVLOCK_TRY(check_sbatch_value("--nodes", nodelist));
  if (!nodes.empty()) {
    options.push_back("--nodelist=" + nodelist);
  }
  for (const auto& [option, value] : pass) {
    ENVLOCK_TRY(check_sbatch_value(option, *value));
    if (!value->empty()) {
      options.push_back(std::string(option) + "=" + *value);
    }
  }
  json data = json::object();
  data["job_name"] = job_name;
  // Without nodes, those of the partition, found when the script is submitted.
  data["fixed_nodes"] = !nodes.empty();
  data["node_count"] = std::to_string(nodes.size());
  data["partition"] = slurm.partition;
  data["partition_q"] = shell_quote(slurm.partition);
  data["sbatch_options"] = options;
  data["results"] = results.string();
  data["results_q"] = shell_quote(results.string());
  data["script"] = script.string();
  data["parallel"] = std::to_string(steps.parallel);
  data["step_time"] = step_time(steps);
  return data;
}

// The shell run on each node for the verifier (inside the container in container mode).
std::string verify_step(const VerifyScript& job, const std::string& verifier,
                        const std::string& lock) {
  std::string command = shell_quote(verifier) + " --lock " + shell_quote(lock);
  for (const auto& arg : job.verifier_args) {
    command += " " + shell_quote(arg);
  }
  const std::string out = shell_quote(job.results.string() + "/nodes") + "/\"$SLURMD_NODENAME\"";
  return command + " --format json -o " + out + ".json > " + out + ".txt 2>&1; echo $? > " + out +
         ".rc.tmp && mv " + out + ".rc.tmp " + out + ".rc";
}

std::string host_step(const VerifyScript& job) {
  const std::string out = shell_quote(job.results.string() + "/nodes") + "/\"$SLURMD_NODENAME\"";
  return shell_quote(job.host_checker.string()) + " node --check --format json --lock " +
         shell_quote(job.lock.string()) + " > " + out + ".host.json.tmp; mv " + out +
         ".host.json.tmp " + out + ".host.json";
}

} // namespace

std::string pyxis_image(const std::string& image) {
  const std::string prefix = "docker://";
  if (image.rfind(prefix, 0) != 0) {
    return image;
  }
  std::string ref = image.substr(prefix.size());
  const auto slash = ref.find('/');
  if (slash != std::string::npos) {
    const std::string host = ref.substr(0, slash);
    if (host.find('.') != std::string::npos || host.find(':') != std::string::npos ||
        host == "localhost") {
      ref[slash] = '#';
    }
  }
  return ref;
}

Result<std::string> render_verify_script(const VerifyScript& job) {
  ENVLOCK_TRY_ASSIGN(json data, common_data(job.job_name, job.nodes, job.slurm, job.results,
                                            job.script, job.steps));
  ENVLOCK_TRY(check_sbatch_value("--gres", job.gpu_request));
  json resources = json::array();
  if (!job.gpu_request.empty()) {
    resources.push_back(job.gpu_request);
  }
  if (job.exclusive) {
    resources.push_back("--exclusive");
  }
  data["resources"] = resources;
  const bool container = job.mode == RunMode::container;
  // In the container the verifier and the lock are mounted at fixed paths; the results folder
  // at its own path, so the per-node files land in the same place either way.
  const std::string verifier = container ? "/envlock/envlock-verify" : job.verifier.string();
  const std::string lock = container ? "/envlock/lock.json" : job.lock.string();
  data["verify_step"] = shell_quote(verify_step(job, verifier, lock));
  data["container"] = container;
  data["mode_words"] =
      container ? "inside the image (pyxis)" : "directly on the node (--no-container)";
  data["image_q"] = shell_quote(pyxis_image(job.image));
  data["mounts_q"] =
      shell_quote(job.verifier.string() + ":/envlock/envlock-verify:ro," + job.lock.string() +
                  ":/envlock/lock.json:ro," + job.results.string() + ":" + job.results.string());
  if (job.host_checker.empty()) {
    data["host_step"] = false;
  } else {
    data["host_step"] = shell_quote(host_step(job));
  }
  return templates::render_template("fleet-verify.sbatch.mustache", data);
}

Result<std::string> render_distribute_script(const DistributeScript& job) {
  ENVLOCK_TRY_ASSIGN(json data, common_data(job.job_name, job.nodes, job.slurm, job.results,
                                            job.script, job.steps));
  const std::string out = shell_quote(job.results.string() + "/nodes") + "/\"$SLURMD_NODENAME\"";
  const std::string check = "sha256sum " + shell_quote(job.dest.string()) + " > " + out +
                            ".sha256.tmp 2> " + out + ".err; mv " + out + ".sha256.tmp " + out +
                            ".sha256";
  data["source"] = job.source.string();
  data["dest"] = job.dest.string();
  data["source_q"] = shell_quote(job.source.string());
  data["dest_q"] = shell_quote(job.dest.string());
  data["copy"] = job.copy;
  data["check_step"] = shell_quote(check);
  return templates::render_template("fleet-distribute.sbatch.mustache", data);
}

} // namespace envlock::fleet
