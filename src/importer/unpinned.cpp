#include "importer/unpinned.hpp"

#include "importer/envlock_tool.hpp"
#include "util/strings.hpp"

#include <sys/utsname.h>

namespace envlock::importer {

Status apply_policy(const Context& c, const Catalogue& catalogue, const std::string& problem) {
  std::vector<std::string> entries;
  for (const auto& entry : c.config.locks) {
    entries.push_back(entry.string());
  }
  const std::string read = std::to_string(catalogue.lock_files.size()) + " lock" +
                           (catalogue.lock_files.size() == 1 ? "" : "s") + " read from " +
                           util::join(entries, ", ");
  const std::string policy = std::string(to_string(c.config.policy));
  if (c.config.policy == Policy::refuse) {
    return check_failed(problem + " (" + read + "); policy '" + policy + "' (" +
                        c.config.policy_origin + ") refuses it");
  }
  c.note("warning: " + problem + " (" + read + "); policy '" + policy + "' (" +
         c.config.policy_origin + ") lets it through unchecked");
  return {};
}

Result<Pin> unpinned_image(const Context& c, const Catalogue& catalogue, const ImageUri& uri) {
  oci::ImageRef shown = uri.image;
  if (shown.tag.empty() && shown.digest.empty()) {
    shown.tag = "latest";
  }
  ENVLOCK_TRY(
      apply_policy(c, catalogue, uri.text + ": " + shown.to_string() + " is pinned by no lock"));
  Pin pin;
  pin.role = "none";
  pin.image = shown;
  pin.platform = host_platform();
  ENVLOCK_TRY_ASSIGN(const auto tool, envlock_tool());
  ENVLOCK_TRY_ASSIGN(const Resolution resolved,
                     run_resolve(tool, shown, pin.platform, c.config.registry));
  pin.image.digest = resolved.digest;
  pin.platform_digest = resolved.platform_digest;
  return pin;
}

std::string host_platform() {
  struct utsname name {};
  if (::uname(&name) == 0 && std::string(name.machine) == "aarch64") {
    return "linux/arm64";
  }
  return "linux/amd64";
}

} // namespace envlock::importer
