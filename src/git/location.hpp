// Where a git source lives, as the manifest writes it: a remote URL (https://, ssh://, git://,
// or scp-like user@host:path) or a local repository (a path relative to the manifest's folder,
// or file://PATH).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace envlock::git {

enum class LocationKind { local_path, remote_url };

// Classifies a `git:` value: "file://PATH" and anything without a scheme or an scp-like
// "host:path" is a local path (file:// as git itself takes it: a repository on this machine);
// another "://" or "host:path" is a remote URL.
LocationKind classify_location(std::string_view location);

// The path a local location names: "file:///srv/megatron" is /srv/megatron (file://localhost/x
// likewise); a plain path as it is. Relative paths are relative to the manifest's folder.
std::filesystem::path local_path_of(std::string_view location);

// The URL with any "user[:password]@" part removed, for messages: https://tok@host/x ->
// https://host/x.
std::string redact_location(std::string_view location);

} // namespace envlock::git
