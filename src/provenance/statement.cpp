#include "provenance/statement.hpp"

#include "git/location.hpp"

namespace envlock::provenance {

using nlohmann::json;

namespace {

json subjects(const ProvenanceInputs& inputs) {
  json out = json::array();
  out.push_back({{"name", inputs.build.repository}, {"digest", digest_set(inputs.build.digest)}});
  if (inputs.sqsh) {
    out.push_back({{"name", inputs.sqsh->name}, {"digest", {{"sha256", inputs.sqsh->sha256}}}});
  }
  return out;
}

// The manifest with credentials removed from git URLs.
json redacted_manifest(json manifest) {
  if (manifest.contains("sources") && manifest["sources"].is_object()) {
    for (auto& [name, source] : manifest["sources"].items()) {
      if (source.is_object() && source.contains("git") && source["git"].is_string()) {
        source["git"] = git::redact_location(source["git"].get<std::string>());
      }
    }
  }
  return manifest;
}

json build_definition(const ProvenanceInputs& inputs) {
  const json external = {{"manifest", redacted_manifest(inputs.manifest)},
                         {"manifestFile",
                          {{"name", inputs.lock.manifest_path},
                           {"digest", {{"sha256", inputs.lock.manifest_sha256}}}}},
                         {"lockFile",
                          {{"name", inputs.lock_file_name},
                           {"digest", {{"sha256", lock::lock_sha256(inputs.lock)}}}}}};
  const json internal = {{"buildArgs", inputs.build.build_args},
                         {"sourceDateEpoch", inputs.build.source_date_epoch}};
  return {{"buildType", k_build_type},
          {"externalParameters", external},
          {"internalParameters", internal},
          {"resolvedDependencies", resolved_dependencies(inputs)}};
}

json run_details(const ProvenanceInputs& inputs) {
  const BuildRecord& build = inputs.build;
  return {{"builder",
           {{"id", "urn:envlock:builder:" + build.builder_name},
            {"version",
             {{"envlock", inputs.envlock_version}, {build.builder_name, build.builder_version}}}}},
          {"metadata",
           {{"invocationId", "urn:envlock:build-result:sha256:" + build.file_sha256},
            {"startedOn", build.started_at},
            {"finishedOn", build.finished_at}}},
          {"byproducts", json::array({{{"name", build.log_path},
                                       {"digest", {{"sha256", build.log_sha256}}},
                                       {"mediaType", "text/plain"}}})}};
}

} // namespace

json digest_set(const std::string& digest) {
  const std::size_t colon = digest.find(':');
  if (colon == std::string::npos) {
    return {{"sha256", digest}};
  }
  return {{digest.substr(0, colon), digest.substr(colon + 1)}};
}

json make_statement(const ProvenanceInputs& inputs) {
  return {{"_type", k_statement_type},
          {"subject", subjects(inputs)},
          {"predicateType", k_slsa_predicate_type},
          {"predicate",
           {{"buildDefinition", build_definition(inputs)}, {"runDetails", run_details(inputs)}}}};
}

} // namespace envlock::provenance
