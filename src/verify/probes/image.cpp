// "image.labels": the labels Enroot wrote into /etc/rc against the lock.
#include "lock/lock.hpp"
#include "util/strings.hpp"
#include "verify/probes/enroot_rc.hpp"
#include "verify/probes/probes.hpp"

namespace envlock::verify {

std::vector<CheckResult> probe_image(const RunContext& context) {
  const std::string id = "image.labels";
  const std::string title = "image labels (Enroot /etc/rc)";
  const auto labels = image_labels(context);
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
    wanted[k_image_revision_label] = it->second.commit;
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
