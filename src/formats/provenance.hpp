// provenance.json (docs/formats/provenance.md): the in-toto Statement v1 whose predicate is SLSA
// provenance v1, as `envlock provenance` writes it, typed. `envlock provenance sign` wraps its
// bytes in a DSSE envelope (provenance/dsse.hpp); `envlock handover --provenance`, `envlock
// chain verify` and the importer read it.
#pragma once

#include "formats/record.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::formats {

inline constexpr const char* k_statement_type = "https://in-toto.io/Statement/v1";
inline constexpr const char* k_slsa_predicate_type = "https://slsa.dev/provenance/v1";
inline constexpr const char* k_build_type = "urn:envlock:build-type:container-image:v1";
inline constexpr const char* k_provenance_file = "provenance.json";

// An in-toto ResourceDescriptor: a subject, a dependency, a byproduct. `uri`, `media_type` and
// `annotations` are written only when not empty.
struct ResourceDescriptor {
  std::string name;
  std::string uri;
  std::map<std::string, std::string> digest; // algorithm -> hex ("sha256", "gitCommit")
  std::string media_type;
  std::map<std::string, std::string> annotations;
  bool operator==(const ResourceDescriptor&) const = default;
};

struct Statement {
  std::vector<ResourceDescriptor> subjects; // the image, then the .sqsh when recorded
  // predicate.buildDefinition
  std::string build_type = k_build_type;
  nlohmann::json manifest = nlohmann::json::object(); // externalParameters.manifest, as parsed
  ResourceDescriptor manifest_file;                   // externalParameters.manifestFile
  ResourceDescriptor lock_file;                       // externalParameters.lockFile
  std::map<std::string, std::string> build_args;      // internalParameters.buildArgs
  std::int64_t source_date_epoch = 0;                 // internalParameters.sourceDateEpoch
  std::vector<ResourceDescriptor> resolved_dependencies;
  // predicate.runDetails
  std::string builder_id;
  std::map<std::string, std::string> builder_version; // tool -> version
  std::string invocation_id;
  std::string started_on;
  std::string finished_on;
  std::vector<ResourceDescriptor> byproducts;
  bool operator==(const Statement&) const = default;
};

// {"sha256": HEX} for "sha256:HEX" (any "ALGORITHM:HEX" likewise; a bare HEX is sha256).
std::map<std::string, std::string> digest_set(const std::string& digest);

nlohmann::json to_json(const ResourceDescriptor& descriptor);
nlohmann::json to_json(const Statement& statement);

// Reads a statement: _type, predicateType and buildType must be envlock's, every other key of
// the predicate is read; externalParameters.manifest is kept as it is. An input error names
// `origin` and the field.
template <>
Result<Statement> from_json<Statement>(const nlohmann::json& value, const std::string& origin);

Result<Statement> read_statement(const std::filesystem::path& path);
Status write_statement(const std::filesystem::path& path, const Statement& statement);

} // namespace envlock::formats
