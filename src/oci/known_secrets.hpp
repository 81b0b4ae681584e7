// Every secret envlock could know of, for the messages that quote text from outside: the
// credential store's values for all registries (ENVLOCK_REGISTRY_PASSWORD with its user, each
// Docker config.json `auths` entry's `auth`, `password`, `identitytoken` and `registrytoken`,
// each password of the Enroot netrc) and the environment's secret-named variables
// (util::SecretValues::add_environment).
#pragma once

#include "oci/credentials.hpp"
#include "util/secret_values.hpp"

namespace envlock::oci {

// The secrets above. Never fails: a missing, unreadable or malformed file adds nothing.
util::SecretValues known_secrets(const CredentialFiles& files = {});

// The secrets in the text of a Docker config.json (every entry of `auths`); nothing when it is
// not JSON.
util::SecretValues docker_config_secrets(std::string_view json_text);

// The passwords in netrc text (every `password` word's value).
util::SecretValues netrc_secrets(std::string_view text);

} // namespace envlock::oci
