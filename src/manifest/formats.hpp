// The text formats of manifest values, checked without I/O: versions, digests, platforms, tags.
// Each returns true when `text` has the format.
#pragma once

#include <string_view>

namespace envlock::manifest {

// MAJOR.MINOR, e.g. 13.3 (expect.cuda, expect.python).
bool is_major_minor(std::string_view text);
// MAJOR.MINOR.PATCH, e.g. 2.30.7 (expect.nccl, python.uv.version).
bool is_major_minor_patch(std::string_view text);
// A version that starts with MAJOR.MINOR, e.g. 2.13.0a0+8145d630e8 (expect.pytorch).
bool is_version_prefix(std::string_view text);
// 64 lowercase hex digits.
bool is_sha256_hex(std::string_view text);
// os/arch[/variant], lowercase letters and digits, e.g. linux/amd64 or linux/arm64/v8.
bool is_platform(std::string_view text);
// An OCI tag: [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}.
bool is_image_tag(std::string_view text);
// A repository path: lowercase components [a-z0-9]+([._-][a-z0-9]+)* joined by '/'.
bool is_repository_path(std::string_view text);
// A build argument name: [A-Za-z_][A-Za-z0-9_]*.
bool is_build_arg_name(std::string_view text);
// True when a git location is a URL (scheme://... or scp-like user@host:path), not a local path.
bool is_git_url(std::string_view text);
// True when a URL carries credentials: a password (user:secret@), or any user in http(s) URLs,
// where it is a token.
bool has_url_credentials(std::string_view url);

} // namespace envlock::manifest
