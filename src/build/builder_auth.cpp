#include "build/builder_auth.hpp"

#include "util/base64.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"

#include <algorithm>

namespace envlock::build {

Result<std::optional<std::string>> builder_auth_json(const oci::CredentialFiles& files,
                                                     const std::vector<std::string>& hosts) {
  nlohmann::json auths = nlohmann::json::object();
  std::vector<std::string> seen;
  for (const auto& host : hosts) {
    if (host.empty() || std::find(seen.begin(), seen.end(), host) != seen.end()) {
      continue;
    }
    seen.push_back(host);
    ENVLOCK_TRY_ASSIGN(const auto credential, oci::find_credential(files, host));
    if (credential) {
      auths[host] = {{"auth", util::base64_encode(credential->user + ":" + credential->password)}};
    }
  }
  if (auths.empty()) {
    return std::optional<std::string>();
  }
  return std::optional<std::string>(util::canonical_json({{"auths", std::move(auths)}}));
}

Result<std::optional<std::filesystem::path>>
write_builder_auth(const oci::CredentialFiles& files, const std::vector<std::string>& hosts,
                   const std::filesystem::path& dir) {
  ENVLOCK_TRY_ASSIGN(const auto json, builder_auth_json(files, hosts));
  if (!json) {
    return std::optional<std::filesystem::path>();
  }
  const std::filesystem::path path = dir / "config.json";
  ENVLOCK_TRY(util::write_file_atomic(path, *json, 0600));
  return std::optional<std::filesystem::path>(path);
}

} // namespace envlock::build
