#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"
#include "verify/enroot_rc.hpp"
#include "verify/probes.hpp"
#include "verify/python_env.hpp"

#include <optional>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

constexpr const char* k_commit_file = "/opt/megatron-lm/.envlock-commit";
constexpr const char* k_revision_label = "org.opencontainers.image.revision";

struct CommitFound {
  std::string commit;
  std::string source;
};

std::map<std::string, std::string> rc_labels(const Context& context) {
  auto text = util::read_file_limited(context.at("/etc/rc"), 1 << 20);
  return text ? parse_enroot_rc_labels(*text) : std::map<std::string, std::string>{};
}

std::optional<CommitFound> commit_from_dist_info(const Context& context) {
  const auto installed = scan_distributions(find_site_packages(context));
  for (const char* name : {"megatron-core", "megatron-lm"}) {
    const auto it = installed.find(name);
    if (it == installed.end()) {
      continue;
    }
    const fs::path direct_url = it->second.dist_info / "direct_url.json";
    auto json = util::read_json_file(direct_url);
    if (json && json->contains("vcs_info") && (*json)["vcs_info"].is_object() &&
        (*json)["vcs_info"].contains("commit_id") && (*json)["vcs_info"]["commit_id"].is_string()) {
      return CommitFound{(*json)["vcs_info"]["commit_id"], context.shown(direct_url)};
    }
  }
  return std::nullopt;
}

std::optional<CommitFound> find_commit(const Context& context) {
  if (auto text = util::read_file_limited(context.at(k_commit_file), 4096)) {
    const std::string commit(util::trim(*text));
    if (!commit.empty()) {
      return CommitFound{commit, k_commit_file};
    }
  }
  const auto labels = rc_labels(context);
  if (const auto it = labels.find(k_revision_label); it != labels.end() && !it->second.empty()) {
    return CommitFound{it->second, std::string("/etc/rc label ") + k_revision_label};
  }
  return commit_from_dist_info(context);
}

} // namespace

std::vector<CheckResult> probe_megatron(const Context& context) {
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
                        ", /etc/rc label " + k_revision_label +
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

std::vector<CheckResult> probe_image(const Context& context) {
  const std::string id = "image.labels";
  const std::string title = "image labels (Enroot /etc/rc)";
  const auto labels = rc_labels(context);
  if (labels.empty()) {
    return {skipped(id, title, "", "no labels in /etc/rc (not an Enroot image)")};
  }
  const auto& lock = context.lock();
  std::map<std::string, std::string> wanted = {
      {"io.envlock.lock.sha256", lock::lock_sha256(lock)},
      {"org.opencontainers.image.base.digest", lock.base_image.digest},
      {"org.opencontainers.image.title", lock.image.name},
      {"org.opencontainers.image.version", lock.image.tag},
  };
  if (const auto it = lock.sources.find("megatron"); it != lock.sources.end()) {
    wanted[k_revision_label] = it->second.commit;
  }
  std::vector<std::string> problems;
  nlohmann::json compared = nlohmann::json::object();
  for (const auto& [key, value] : wanted) {
    if (value.empty()) {
      continue;
    }
    const auto it = labels.find(key);
    const std::string found = it == labels.end() ? "" : it->second;
    compared[key] = {{"expected", value}, {"found", found}};
    if (it == labels.end()) {
      problems.push_back(key + " missing");
    } else if (found != value) {
      problems.push_back(key + " is " + found + ", the lock says " + value);
    }
  }
  const std::string expected = std::to_string(compared.size()) + " labels match";
  const std::string found_text = std::to_string(compared.size() - problems.size()) + " of " +
                                 std::to_string(compared.size()) + " match";
  CheckResult check = problems.empty()
                          ? passed(id, title, expected, found_text)
                          : failed(id, title, expected, found_text, util::join(problems, "; "));
  check.details["labels"] = compared;
  return {check};
}

} // namespace envlock::verify
