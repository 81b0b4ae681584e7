#include "fleet/distribute.hpp"

#include "fleet/hostlist.hpp"
#include "fleet/node_availability.hpp"
#include "fleet/node_results.hpp"
#include "fleet/verify_run.hpp"
#include "formats/squashfs_result.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <system_error>

namespace envlock::fleet {

namespace fs = std::filesystem;

namespace {

std::map<std::string, NodeHash> read_hashes(const fs::path& results,
                                            const std::vector<std::string>& nodes) {
  std::map<std::string, NodeHash> out;
  for (const auto& node : nodes) {
    NodeHash hash;
    const fs::path sum = nodes_dir(results) / (node + ".sha256");
    const fs::path err = nodes_dir(results) / (node + ".err");
    if (util::path_exists(sum)) {
      hash.sha256sum_output = util::read_file_limited(sum, 4096).value_or("");
    }
    hash.answered = hash.sha256sum_output.has_value() || util::path_exists(err);
    hash.error = std::string(util::trim(util::read_file_limited(err, 4096).value_or("")));
    out[node] = std::move(hash);
  }
  return out;
}

NodeCopy check_copy(const std::string& node, const NodeHash& hash, const std::string& expected) {
  NodeCopy copy{node, "fail", "", ""};
  if (!hash.answered) {
    copy.outcome = "not_verified";
    copy.reason = "no result from the node";
    return copy;
  }
  if (!hash.sha256sum_output) {
    copy.reason = hash.error.empty() ? "sha256sum left no hash" : hash.error;
    return copy;
  }
  const std::string text{util::trim(*hash.sha256sum_output)};
  const std::string digest = text.substr(0, std::min<std::size_t>(64, text.size()));
  if (digest.size() != 64 || !util::is_hex(digest)) {
    copy.reason = hash.error.empty() ? "sha256sum printed no hash" : hash.error;
    return copy;
  }
  copy.sha256 = digest;
  if (digest == expected) {
    copy.outcome = "pass";
  } else {
    copy.reason = "sha256 " + digest + " differs from the recorded " + expected;
  }
  return copy;
}

} // namespace

DistributeReport check_copies(const std::map<std::string, NodeHash>& hashes,
                              const std::string& expected) {
  DistributeReport report;
  report.expected = expected;
  for (const auto& [node, hash] : hashes) {
    report.nodes.push_back(check_copy(node, hash, expected));
  }
  std::sort(report.nodes.begin(), report.nodes.end(),
            [](const NodeCopy& a, const NodeCopy& b) { return node_less(a.node, b.node); });
  return report;
}

Result<std::string> recorded_sqsh_sha256(const fs::path& result_json) {
  ENVLOCK_TRY_ASSIGN(const formats::SquashfsResult result,
                     formats::read_squashfs_result(result_json));
  return result.sha256;
}

Result<DistributeReport> run_distribute(const DistributeRun& run) {
  DistributeScript script = run.script;
  std::error_code ec;
  fs::remove_all(nodes_dir(script.results), ec);
  fs::remove(script.results / "sbcast.failed", ec);
  fs::create_directories(nodes_dir(script.results), ec);
  if (ec) {
    return env_error(nodes_dir(script.results).string() + ": " + ec.message());
  }
  // Nodes Slurm will not give the job are not waited for: the job would never start.
  ENVLOCK_TRY_ASSIGN(const auto before, node_states());
  const bool reservation = !script.slurm.reservation.empty();
  const NodeSplit split = split_by_state(script.nodes, before, reservation);
  script.nodes = split.usable;
  std::string job_id;
  WaitOutcome waited;
  if (!script.nodes.empty()) {
    ENVLOCK_TRY_ASSIGN(const std::string text, render_distribute_script(script));
    ENVLOCK_TRY(util::write_file_atomic(script.script, text, 0755));
    ENVLOCK_TRY_ASSIGN(job_id, submit_batch(script.script));
    if (run.on_submitted) {
      run.on_submitted(job_id);
    }
    const auto done = [&] {
      std::size_t n = 0;
      for (const auto& node : script.nodes) {
        n += util::path_exists(nodes_dir(script.results) / (node + ".sha256")) ? 1 : 0;
      }
      return n;
    };
    WaitLimits limits = run.limits;
    if (limits.deadline.count() == 0) {
      // The copy (sbcast) counts as one more step.
      limits.deadline =
          default_deadline(script.nodes.size(), script.steps, limits.pending_limit, 1) +
          std::chrono::seconds(script.steps.step_seconds > 0 ? script.steps.step_seconds : 3600);
    }
    ENVLOCK_TRY_ASSIGN(waited,
                       wait_for_job(job_id, done, script.nodes.size(), run.on_progress, limits));
  }
  DistributeReport report =
      check_copies(read_hashes(script.results, run.script.nodes), run.expected);
  report.file = script.source.filename().string();
  report.dest = script.dest.string();
  const auto states = node_states().value_or({});
  const std::string sbcast = std::string(
      util::trim(util::read_file_limited(script.results / "sbcast.failed", 4096).value_or("")));
  for (auto& node : report.nodes) {
    if (const auto out = split.not_waited_for.find(node.node); out != split.not_waited_for.end()) {
      node.reason = *unavailable_because(out->second, reservation);
      continue;
    }
    if (node.outcome == "not_verified") {
      node.reason =
          waited.end == WaitEnd::pending_timeout
              ? waited.words + "; " + node_words(node.node, states)
              : node.reason + "; " +
                    (waited.words.empty() ? slurm_words(node.node, job_id, waited.job, states)
                                          : waited.words);
    }
    if (node.outcome == "fail" && !sbcast.empty()) {
      node.reason += "; " + sbcast;
    }
  }
  report.job_id = job_id;
  report.results = script.results.string();
  ENVLOCK_TRY(
      formats::write_distribute_report(script.results / formats::k_distribute_report_file, report));
  return report;
}

std::string distribute_report_to_table(const DistributeReport& report) {
  std::string out;
  std::size_t passed = 0;
  for (const auto& n : report.nodes) {
    passed += n.outcome == "pass" ? 1 : 0;
    const std::string label = n.outcome == "pass"           ? "PASS"
                              : n.outcome == "fail"         ? "FAIL"
                              : n.outcome == "not_verified" ? "SKIP"
                                                            : "MISS";
    out += label + "  " + n.node + "  " +
           (n.outcome == "pass"           ? n.sha256
            : n.outcome == "not_verified" ? "not verified: " + n.reason
                                          : n.reason) +
           "\n";
  }
  out += std::to_string(passed) + " of " + std::to_string(report.nodes.size()) + " nodes hold " +
         report.dest + " with sha256 " + report.expected + "\n";
  return out;
}

std::vector<NodeVerdict> verdicts_from_distribute(const DistributeReport& report) {
  std::vector<NodeVerdict> out;
  for (const auto& n : report.nodes) {
    if (n.outcome == "not_verified") {
      continue; // nothing is known of its copy
    }
    const bool passed = n.outcome == "pass";
    out.push_back({n.node, passed,
                   passed                ? ""
                   : n.outcome == "fail" ? std::string(k_reason_prefix) + "image copy differs"
                                         : std::string(k_reason_prefix) + "image copy missing"});
  }
  return out;
}

} // namespace envlock::fleet
