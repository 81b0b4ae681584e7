// `envlock keygen`'s files: a new Ed25519 private key (PKCS#8 PEM, mode 0600) at KEY and its
// public key (SubjectPublicKeyInfo PEM, mode 0644) at KEY.pub, each written atomically.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <string>

namespace envlock::provenance {

// Whether an existing key file may be replaced.
enum class Overwrite { refuse, replace };

// Where a key lives when no path is given: ${XDG_CONFIG_HOME:-~/.config}/envlock/signing.key,
// outside any project (as ssh-keygen's ~/.ssh), so that no `git add -A` commits it. An input
// error when neither variable is an absolute path.
Result<std::filesystem::path> default_key_path();

// KEY.pub for KEY.
std::filesystem::path public_key_path(const std::filesystem::path& key_path);

// Generates a key pair and writes both files; returns the key id. Fails with an input error
// naming the file when KEY or KEY.pub exists and `overwrite` is refuse, or with the error of the
// write.
Result<std::string> write_key_pair(const std::filesystem::path& key_path, Overwrite overwrite);

} // namespace envlock::provenance
