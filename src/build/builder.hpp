// The image builders envlock drives (buildah, podman, docker buildx): their command lines, kept
// pure so they can be tested without running anything. builder_run.hpp runs them.
// docs/manual/build.md lists the exact arguments.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::build {

enum class BuilderKind { buildah, podman, docker };

// Whether the builder may talk plain HTTP / unverified TLS to the target registry.
enum class TlsVerify { on, off };

// Whether the image is pushed after the build.
enum class Push { no, yes };

// "buildah", "podman" or "docker".
std::string builder_name(BuilderKind kind);

// Parses --builder. Fails (exit 2) with "unknown builder 'x'; expected buildah, docker or podman".
Result<BuilderKind> parse_builder(std::string_view name);

struct BuildCommand {
  BuilderKind kind = BuilderKind::buildah;
  std::filesystem::path context_dir;     // holds Dockerfile and everything it copies
  std::string dockerfile = "Dockerfile"; // its path in the context
  std::string image;                     // REPOSITORY:TAG, the name the image is tagged with
  std::map<std::string, std::string> build_args;
  std::int64_t source_date_epoch = 0;
  std::string isolation = "chroot"; // buildah and podman only
  TlsVerify tls = TlsVerify::on;
  std::filesystem::path id_file;       // where the builder writes the image id
  std::filesystem::path metadata_file; // docker only: --metadata-file (holds the pushed digest)
  Push push = Push::no;                // docker pushes during the build
  // Registry credentials for the builder (builder_auth.hpp), or empty: buildah and podman get
  // --authfile FILE; docker reads FILE's folder as DOCKER_CONFIG (the caller sets it).
  std::filesystem::path auth_file;
};

// The build's argv: `buildah bud ...`, `podman build ...` or `docker buildx build ...`.
std::vector<std::string> build_argv(const BuildCommand& command);

// The push's argv for buildah and podman (`push --digestfile FILE IMAGE docker://IMAGE`); empty
// for docker, which pushes during the build.
std::vector<std::string> push_argv(const BuildCommand& command,
                                   const std::filesystem::path& digest_file);

// The version in the first line of `NAME --version` output ("buildah version 1.28.2 (...)",
// "Docker version 24.0.5, build ..."), or "" when there is none.
std::string parse_builder_version(std::string_view output);

// The text of an --iidfile or --digestfile, normalised to "sha256:HEX", or "" when it is not one.
std::string parse_digest_file(std::string_view text);

} // namespace envlock::build
