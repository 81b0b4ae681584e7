// Registry credentials, looked up in order: the environment (ENVLOCK_REGISTRY_USER and
// ENVLOCK_REGISTRY_PASSWORD, for every registry), Docker's config.json `auths`, then an
// Enroot-style netrc file (`machine HOST login USER password PASS`). Credential helpers
// (credsStore, credHelpers) and netrc passwords to be evaluated by a shell are not supported.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace envlock::oci {

struct Credential {
  std::string user;
  std::string password;
  std::string source; // where it came from, for messages: "ENVLOCK_REGISTRY_USER", a file path
};

// The entry for `registry` (host[:port]) in the text of a Docker config.json. Keys match as
// "host[:port]", "https://host[:port]/v1/" or any URL of that host; Docker Hub's entry
// ("https://index.docker.io/v1/") serves registry-1.docker.io. An input error names `origin` when
// the JSON or a matching entry's "auth" is malformed.
Result<std::optional<Credential>> docker_config_credential(std::string_view json_text,
                                                           std::string_view registry,
                                                           std::string_view origin);

// The `machine` entry for `registry` in netrc text, matched as host:port first, then host.
std::optional<Credential> netrc_credential(std::string_view text, std::string_view registry,
                                           std::string_view origin);

struct CredentialFiles {
  std::filesystem::path docker_config;      // empty: ~/.docker/config.json ($DOCKER_CONFIG too)
  std::filesystem::path enroot_credentials; // empty: $ENROOT_CONFIG_PATH or ~/.config/enroot
};

// The Docker config.json read: files.docker_config, else $DOCKER_CONFIG/config.json, else
// ~/.docker/config.json (empty when there is no home folder either).
std::filesystem::path docker_config_path(const CredentialFiles& files);

// The Enroot netrc read: files.enroot_credentials, else $ENROOT_CONFIG_PATH/.credentials, else
// ~/.config/enroot/.credentials.
std::filesystem::path enroot_credentials_path(const CredentialFiles& files);

// The first credential for `registry` from the sources above; nothing when none has one. Missing
// files are skipped; a malformed one is an input error naming it.
Result<std::optional<Credential>> find_credential(const CredentialFiles& files,
                                                  std::string_view registry);

} // namespace envlock::oci
