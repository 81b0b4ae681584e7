#include "oci/credentials.hpp"

#include "oci/image_ref.hpp"
#include "util/base64.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>
#include <vector>

namespace envlock::oci {

namespace {

// host[:port] of a config.json key: "https://host:port/v1/" -> "host:port".
std::string key_host(std::string_view key) {
  if (const std::size_t scheme = key.find("://"); scheme != std::string_view::npos) {
    key.remove_prefix(scheme + 3);
  }
  return util::to_lower(key.substr(0, key.find('/')));
}

bool key_matches(std::string_view key, std::string_view registry) {
  const std::string host = key_host(key);
  if (host == registry) {
    return true;
  }
  return registry == k_default_registry && (host == "index.docker.io" || host == "docker.io");
}

std::string host_only(std::string_view registry) {
  return std::string(registry.substr(0, registry.rfind(':')));
}

std::string env_or_empty(const char* name) {
  const char* value = std::getenv(name); // NOLINT(concurrency-mt-unsafe): read-only use
  return value == nullptr ? std::string() : std::string(value);
}

std::filesystem::path home_path(const char* relative) {
  const std::string home = env_or_empty("HOME");
  return home.empty() ? std::filesystem::path() : std::filesystem::path(home) / relative;
}

bool is_file(const std::filesystem::path& path) {
  std::error_code ec;
  return !path.empty() && std::filesystem::is_regular_file(path, ec);
}

} // namespace

Result<std::optional<Credential>> docker_config_credential(std::string_view json_text,
                                                           std::string_view registry,
                                                           std::string_view origin) {
  // Parsed without util::parse_json: its messages quote the text, which holds secrets here.
  const auto config = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (config.is_discarded()) {
    return input_error(std::string(origin) + ": invalid JSON");
  }
  if (!config.is_object() || !config.contains("auths")) {
    return std::optional<Credential>();
  }
  const auto& auths = config["auths"];
  if (!auths.is_object()) {
    return input_error(std::string(origin) + ": \"auths\" must be an object");
  }
  for (const auto& [key, entry] : auths.items()) {
    if (!key_matches(key, registry) || !entry.is_object()) {
      continue;
    }
    Credential credential;
    credential.source = std::string(origin);
    if (entry.contains("auth") && entry["auth"].is_string()) {
      const auto decoded = util::base64_decode_lenient(entry["auth"].get<std::string>());
      const std::size_t colon = decoded ? decoded->find(':') : std::string::npos;
      if (colon == std::string::npos) {
        return input_error(std::string(origin) + ": the \"auth\" of '" + key +
                           "' is not base64 of USER:PASSWORD");
      }
      credential.user = decoded->substr(0, colon);
      credential.password = decoded->substr(colon + 1);
      return std::optional<Credential>(credential);
    }
    if (entry.contains("username") && entry["username"].is_string() && entry.contains("password") &&
        entry["password"].is_string()) {
      credential.user = entry["username"].get<std::string>();
      credential.password = entry["password"].get<std::string>();
      return std::optional<Credential>(credential);
    }
  }
  return std::optional<Credential>();
}

std::optional<Credential> netrc_credential(std::string_view text, std::string_view registry,
                                           std::string_view origin) {
  std::istringstream in{std::string(text)};
  std::vector<std::string> words;
  std::string word;
  while (in >> word) {
    words.push_back(word);
  }
  std::optional<Credential> by_host;
  const std::string host = host_only(registry);
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (words[i] != "machine" || i + 1 >= words.size()) {
      continue;
    }
    const std::string machine = util::to_lower(words[i + 1]);
    Credential credential;
    credential.source = std::string(origin);
    for (std::size_t j = i + 2; j + 1 < words.size() && words[j] != "machine"; j += 2) {
      if (words[j] == "login") {
        credential.user = words[j + 1];
      } else if (words[j] == "password") {
        credential.password = words[j + 1];
      }
    }
    if (machine == registry) {
      return credential;
    }
    if (machine == host && !by_host) {
      by_host = credential;
    }
  }
  return by_host;
}

std::filesystem::path docker_config_path(const CredentialFiles& files) {
  if (!files.docker_config.empty()) {
    return files.docker_config;
  }
  const std::string dir = env_or_empty("DOCKER_CONFIG");
  return dir.empty() ? home_path(".docker/config.json")
                     : std::filesystem::path(dir) / "config.json";
}

std::filesystem::path enroot_credentials_path(const CredentialFiles& files) {
  if (!files.enroot_credentials.empty()) {
    return files.enroot_credentials;
  }
  const std::string dir = env_or_empty("ENROOT_CONFIG_PATH");
  return dir.empty() ? home_path(".config/enroot/.credentials")
                     : std::filesystem::path(dir) / ".credentials";
}

Result<std::optional<Credential>> find_credential(const CredentialFiles& files,
                                                  std::string_view registry) {
  const std::string user = env_or_empty("ENVLOCK_REGISTRY_USER");
  if (!user.empty()) {
    return std::optional<Credential>(
        Credential{user, env_or_empty("ENVLOCK_REGISTRY_PASSWORD"), "ENVLOCK_REGISTRY_USER"});
  }
  const std::filesystem::path docker = docker_config_path(files);
  if (is_file(docker)) {
    ENVLOCK_TRY_ASSIGN(const std::string text, util::read_file_limited(docker, 1U << 20U));
    ENVLOCK_TRY_ASSIGN(auto found, docker_config_credential(text, registry, docker.string()));
    if (found) {
      return found;
    }
  }
  const std::filesystem::path netrc = enroot_credentials_path(files);
  if (is_file(netrc)) {
    ENVLOCK_TRY_ASSIGN(const std::string text, util::read_file_limited(netrc, 1U << 20U));
    return netrc_credential(text, registry, netrc.string());
  }
  return std::optional<Credential>();
}

} // namespace envlock::oci
