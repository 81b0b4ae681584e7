#include "provenance/statement.hpp"

#include "git/location.hpp"

namespace envlock::provenance {

using formats::digest_set;
using formats::ResourceDescriptor;
using nlohmann::json;

namespace {

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

} // namespace

formats::Statement build_statement(const ProvenanceInputs& inputs) {
  const BuildRecord& build = inputs.build;
  formats::Statement s;
  s.subjects.push_back({build.repository, "", digest_set(build.digest), "", {}});
  if (inputs.sqsh) {
    s.subjects.push_back({inputs.sqsh->name, "", {{"sha256", inputs.sqsh->sha256}}, "", {}});
  }
  s.manifest = redacted_manifest(inputs.manifest);
  s.manifest_file = {
      inputs.lock.manifest_path, "", {{"sha256", inputs.lock.manifest_sha256}}, "", {}};
  s.lock_file = {inputs.lock_file_name, "", {{"sha256", lock::lock_sha256(inputs.lock)}}, "", {}};
  s.build_args = build.build_args;
  s.source_date_epoch = build.source_date_epoch;
  s.resolved_dependencies = resolved_dependencies(inputs);
  s.builder_id = "urn:envlock:builder:" + build.builder_name;
  s.builder_version = {{"envlock", inputs.envlock_version},
                       {build.builder_name, build.builder_version}};
  s.invocation_id = "urn:envlock:build-result:sha256:" + build.file_sha256;
  s.started_on = build.started_at;
  s.finished_on = build.finished_at;
  s.byproducts.push_back({build.log_path, "", {{"sha256", build.log_sha256}}, "text/plain", {}});
  return s;
}

json make_statement(const ProvenanceInputs& inputs) {
  return formats::to_json(build_statement(inputs));
}

} // namespace envlock::provenance
