// Where a git source lives, as the manifest writes it: a remote URL (https://, ssh://, file://,
// or scp-like user@host:path) or a local repository path relative to the manifest's folder.
#pragma once

#include <string>
#include <string_view>

namespace envlock::git {

enum class LocationKind { local_path, remote_url };

// Classifies a `git:` value: "://" or an scp-like "host:path" is a remote URL, anything else a
// path.
LocationKind classify_location(std::string_view location);

// The URL with any "user[:password]@" part removed, for messages: https://tok@host/x ->
// https://host/x.
std::string redact_location(std::string_view location);

} // namespace envlock::git
