// The provenance statement: an in-toto Statement v1 whose predicate is SLSA provenance v1,
// describing how `envlock build` made an image (and `envlock squashfs` its .sqsh) from a lock.
// Pure: no I/O, so the same inputs give the same JSON, and canonical_json the same bytes.
// docs/formats/provenance.md describes every field and names the volatile ones.
#pragma once

#include "formats/provenance.hpp"
#include "lock/lock.hpp"
#include "provenance/build_record.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::provenance {

using formats::k_build_type;
using formats::k_slsa_predicate_type;
using formats::k_statement_type;

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

// The statement (formats/provenance.hpp).
formats::Statement build_statement(const ProvenanceInputs& inputs);

// The statement as JSON: formats::to_json(build_statement(inputs)).
nlohmann::json make_statement(const ProvenanceInputs& inputs);

// predicate.buildDefinition.resolvedDependencies: the base image (index and platform manifest),
// each git source, the recipe, uv.lock, pyproject.toml, the Dockerfile and the context tar.
std::vector<formats::ResourceDescriptor> resolved_dependencies(const ProvenanceInputs& inputs);

} // namespace envlock::provenance
