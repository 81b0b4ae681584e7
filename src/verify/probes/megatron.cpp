#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"
#include "verify/probes/enroot_rc.hpp"
#include "verify/probes/probes.hpp"
#include "verify/probes/python_env.hpp"

#include <optional>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_commit_file = "/opt/megatron-lm/.envlock-commit";

struct CommitFound {
  std::string commit;
  std::string source;
};

std::optional<CommitFound> commit_from_dist_info(const RunContext& context) {
  const auto installed = scan_distributions(context, context.python());
  for (const char* name : {"megatron-core", "megatron-lm"}) {
    const auto it = installed.find(name);
    if (it == installed.end()) {
      continue;
    }
    const fs::path direct_url = it->second.dist_info / "direct_url.json";
    const auto text = context.read(direct_url, 1 << 20);
    auto json = text ? util::parse_json(*text, context.shown(direct_url))
                     : Result<nlohmann::json>(text.error());
    if (json && json->contains("vcs_info") && (*json)["vcs_info"].is_object() &&
        (*json)["vcs_info"].contains("commit_id") && (*json)["vcs_info"]["commit_id"].is_string()) {
      return CommitFound{(*json)["vcs_info"]["commit_id"], context.shown(direct_url)};
    }
  }
  return std::nullopt;
}

std::optional<CommitFound> find_commit(const RunContext& context) {
  if (auto text = context.read(context.at(k_commit_file), 4096)) {
    const std::string commit(util::trim(*text));
    if (!commit.empty()) {
      return CommitFound{commit, k_commit_file};
    }
  }
  const auto labels = image_labels(context);
  if (const auto it = labels.find(k_image_revision_label);
      it != labels.end() && !it->second.empty()) {
    return CommitFound{it->second, std::string("/etc/rc label ") + k_image_revision_label};
  }
  return commit_from_dist_info(context);
}

} // namespace

std::vector<CheckResult> probe_megatron(const RunContext& context) {
  const std::string id = "megatron.commit";
  const std::string title = "Megatron-LM commit";
  const auto source = context.lock().sources.find("megatron");
  if (source == context.lock().sources.end()) {
    return {skipped(id, title, "", "the lock has no megatron source")};
  }
  const std::string& expected = source->second.commit;
  const auto found = find_commit(context);
  if (!found) {
    return {skipped(id, title, expected,
                    std::string("no Megatron-LM commit found (") + k_commit_file +
                        ", /etc/rc label " + k_image_revision_label +
                        ", megatron-core direct_url.json)")};
  }
  CheckResult check = found->commit == expected
                          ? passed(id, title, expected, found->commit)
                          : failed(id, title, expected, found->commit,
                                   "Megatron-LM commit " + found->commit + " (from " +
                                       found->source + ") differs from the lock's " + expected);
  check.details["source"] = found->source;
  return {check};
}

} // namespace envlock::verify
