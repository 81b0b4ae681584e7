// The provenance statement: an in-toto Statement v1 whose predicate is SLSA provenance v1,
// describing how `envlock build` made an image (and `envlock squashfs` its .sqsh) from a lock.
// Pure: no I/O, so the same inputs give the same JSON, and canonical_json the same bytes.
// docs/formats/provenance.md describes every field and names the volatile ones.
#pragma once

#include "lock/lock.hpp"
#include "provenance/build_record.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace envlock::provenance {

inline constexpr const char* k_statement_type = "https://in-toto.io/Statement/v1";
inline constexpr const char* k_slsa_predicate_type = "https://slsa.dev/provenance/v1";
inline constexpr const char* k_build_type = "urn:envlock:build-type:container-image:v1";

// A file subject (the .sqsh): its file name and sha256.
struct FileSubject {
  std::string name;
  std::string sha256;
};

struct ProvenanceInputs {
  lock::Lock lock;
  std::string lock_file_name; // the lock's file name, no folder
  nlohmann::json manifest;    // the manifest as parsed (manifest::to_json)
  BuildRecord build;
  std::optional<FileSubject> sqsh;
  std::string envlock_version; // the envlock that writes the statement
};

// The statement as JSON.
nlohmann::json make_statement(const ProvenanceInputs& inputs);

// predicate.buildDefinition.resolvedDependencies: the base image (index and platform manifest),
// each git source, the recipe, uv.lock, pyproject.toml, the Dockerfile and the context tar.
nlohmann::json resolved_dependencies(const ProvenanceInputs& inputs);

// {"sha256": HEX} for "sha256:HEX" (any "ALGORITHM:HEX" likewise).
nlohmann::json digest_set(const std::string& digest);

} // namespace envlock::provenance
