// Image references: [REGISTRY/]REPOSITORY[:TAG][@DIGEST], parsed and printed without I/O.
#pragma once

#include "util/result.hpp"

#include <string>
#include <string_view>

namespace envlock::oci {

// The registry of an image reference that names none (Docker's default).
inline constexpr const char* k_default_registry = "registry-1.docker.io";

struct ImageRef {
  std::string registry;   // host[:port]; "registry-1.docker.io" for Docker Hub
  std::string repository; // path, e.g. nvidia/pytorch; "library/ubuntu" for official images
  std::string tag;        // empty when only a digest was given
  std::string digest;     // "sha256:<64 hex>" or empty

  // registry/repository
  [[nodiscard]] std::string name() const;
  // registry/repository[:tag][@digest]
  [[nodiscard]] std::string to_string() const;
  // The reference to ask the registry for: the digest when set, else the tag ("latest" if none).
  [[nodiscard]] std::string reference() const;
  bool operator==(const ImageRef&) const = default;
};

// Parses a reference the way Docker does: the first path component is a registry when it has a
// '.' or ':' or is "localhost"; otherwise the image is on Docker Hub. Errors (exit 2) say what is
// wrong, e.g. "invalid image reference 'Foo': repository must be lowercase".
Result<ImageRef> parse_image_ref(std::string_view text);

// True for one path component of a repository name, as Docker's grammar has it:
// [a-z0-9]+(([._]|__|-+)[a-z0-9]+)*
bool is_repository_component(std::string_view part);

// True for a tag as Docker's grammar has it: [A-Za-z0-9_][A-Za-z0-9_.-]{0,127}.
bool is_valid_tag(std::string_view tag);

// True for "sha256:" followed by 64 lowercase hex digits.
bool is_valid_digest(std::string_view digest);

} // namespace envlock::oci
