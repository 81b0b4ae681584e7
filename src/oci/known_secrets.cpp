#include "oci/known_secrets.hpp"

#include "util/base64.hpp"
#include "util/fs.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

namespace envlock::oci {

namespace {

constexpr std::uintmax_t k_credential_file_limit = std::uintmax_t{1} << 20U;

std::string credential_file_text(const std::filesystem::path& path) {
  std::error_code ec;
  if (path.empty() || !std::filesystem::is_regular_file(path, ec)) {
    return {};
  }
  auto text = util::read_file_limited(path, k_credential_file_limit);
  return text ? *text : std::string();
}

std::string secret_field(const nlohmann::json& entry, const char* key) {
  const auto it = entry.find(key);
  return it != entry.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

util::SecretValues docker_config_secrets(std::string_view json_text) {
  util::SecretValues out;
  const auto config = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (!config.is_object() || !config.contains("auths") || !config["auths"].is_object()) {
    return out;
  }
  for (const auto& [key, entry] : config["auths"].items()) {
    if (!entry.is_object()) {
      continue;
    }
    const std::string auth = secret_field(entry, "auth");
    out.add(auth);
    if (const auto decoded = util::base64_decode_lenient(auth)) {
      const std::size_t colon = decoded->find(':');
      if (colon != std::string::npos) {
        out.add_login(decoded->substr(0, colon), decoded->substr(colon + 1));
      }
    }
    out.add_login(secret_field(entry, "username"), secret_field(entry, "password"));
    out.add(secret_field(entry, "identitytoken"));
    out.add(secret_field(entry, "registrytoken"));
  }
  return out;
}

util::SecretValues netrc_secrets(std::string_view text) {
  util::SecretValues out;
  std::istringstream in{std::string(text)};
  std::string word;
  std::string login;
  while (in >> word) {
    if (word == "login" && in >> word) {
      login = word;
    } else if (word == "password" && in >> word) {
      out.add_login(login, word);
    }
  }
  return out;
}

util::SecretValues known_secrets(const CredentialFiles& files) {
  util::SecretValues out;
  out.add_environment();
  const char* user = std::getenv("ENVLOCK_REGISTRY_USER");         // NOLINT(concurrency-mt-unsafe)
  const char* password = std::getenv("ENVLOCK_REGISTRY_PASSWORD"); // NOLINT(concurrency-mt-unsafe)
  if (password != nullptr) {
    out.add_login(user == nullptr ? "" : user, password);
  }
  out.merge(docker_config_secrets(credential_file_text(docker_config_path(files))));
  out.merge(netrc_secrets(credential_file_text(enroot_credentials_path(files))));
  return out;
}

} // namespace envlock::oci
