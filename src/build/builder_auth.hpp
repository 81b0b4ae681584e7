// The registry credentials envlock holds (oci/credentials.hpp: ENVLOCK_REGISTRY_*, Docker's
// config.json, Enroot's netrc), handed to the builder for the registries a build talks to, so
// that `envlock build --push` authenticates as `envlock lock` does. They go into a file in the
// build's private temporary folder, never onto a command line or into the log.
#pragma once

#include "oci/credentials.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace envlock::build {

// {"auths": {"HOST": {"auth": base64("USER:PASSWORD")}}}: the format of a containers auth file
// (buildah/podman --authfile) and of Docker's config.json alike. `hosts` are looked up once each.
// Returns std::nullopt when envlock has a credential for none of them; fails like
// oci::find_credential.
Result<std::optional<std::string>> builder_auth_json(const oci::CredentialFiles& files,
                                                     const std::vector<std::string>& hosts);

// Writes the auth JSON for `hosts` to DIR/config.json (`dir` must be private to this process).
// Returns the file's path, or std::nullopt when there is nothing to hand over.
Result<std::optional<std::filesystem::path>>
write_builder_auth(const oci::CredentialFiles& files, const std::vector<std::string>& hosts,
                   const std::filesystem::path& dir);

} // namespace envlock::build
