#include "formats/provenance.hpp"

namespace envlock::formats {

using nlohmann::json;
using util::FieldReader;
using util::Presence;

std::map<std::string, std::string> digest_set(const std::string& digest) {
  const std::size_t colon = digest.find(':');
  if (colon == std::string::npos) {
    return {{"sha256", digest}};
  }
  return {{digest.substr(0, colon), digest.substr(colon + 1)}};
}

json to_json(const ResourceDescriptor& d) {
  json out = {{"name", d.name}, {"digest", d.digest}};
  if (!d.uri.empty()) {
    out["uri"] = d.uri;
  }
  if (!d.media_type.empty()) {
    out["mediaType"] = d.media_type;
  }
  if (!d.annotations.empty()) {
    out["annotations"] = d.annotations;
  }
  return out;
}

namespace {

json descriptors_json(const std::vector<ResourceDescriptor>& list) {
  json out = json::array();
  for (const auto& d : list) {
    out.push_back(to_json(d));
  }
  return out;
}

ResourceDescriptor read_descriptor(FieldReader& r) {
  ResourceDescriptor d;
  d.name = r.str("name");
  d.uri = r.str("uri", Presence::optional);
  d.digest = r.string_map("digest");
  d.media_type = r.str("mediaType", Presence::optional);
  d.annotations = r.string_map("annotations", Presence::optional);
  return d;
}

std::vector<ResourceDescriptor> read_descriptors(FieldReader& r, const char* key) {
  std::vector<ResourceDescriptor> out;
  if (const json* list = r.array(key); list != nullptr) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      FieldReader d = r.element(key, i, (*list)[i]);
      out.push_back(read_descriptor(d));
      r.merge(d);
    }
  }
  return out;
}

void read_fixed(FieldReader& r, const char* key, const char* expected) {
  const std::string text = r.str(key);
  if (!r.error() && text != expected) {
    r.fail(r.join(key), "'" + text + "' is not " + expected);
  }
}

void read_build_definition(FieldReader& p, Statement& s) {
  FieldReader b = p.sub("buildDefinition");
  read_fixed(b, "buildType", k_build_type);
  FieldReader ext = b.sub("externalParameters");
  if (const json* manifest = ext.object("manifest"); manifest != nullptr) {
    s.manifest = *manifest;
  }
  FieldReader manifest_file = ext.sub("manifestFile");
  s.manifest_file = read_descriptor(manifest_file);
  ext.merge(manifest_file);
  FieldReader lock_file = ext.sub("lockFile");
  s.lock_file = read_descriptor(lock_file);
  ext.merge(lock_file);
  b.merge(ext);
  FieldReader internal = b.sub("internalParameters");
  s.build_args = internal.string_map("buildArgs");
  s.source_date_epoch = internal.integer("sourceDateEpoch");
  b.merge(internal);
  s.resolved_dependencies = read_descriptors(b, "resolvedDependencies");
  p.merge(b);
}

void read_run_details(FieldReader& p, Statement& s) {
  FieldReader run = p.sub("runDetails");
  FieldReader builder = run.sub("builder");
  s.builder_id = builder.str("id");
  s.builder_version = builder.string_map("version");
  run.merge(builder);
  FieldReader metadata = run.sub("metadata");
  s.invocation_id = metadata.str("invocationId");
  s.started_on = metadata.str("startedOn");
  s.finished_on = metadata.str("finishedOn");
  run.merge(metadata);
  s.byproducts = read_descriptors(run, "byproducts");
  p.merge(run);
}

} // namespace

json to_json(const Statement& s) {
  const json external = {{"manifest", s.manifest},
                         {"manifestFile", to_json(s.manifest_file)},
                         {"lockFile", to_json(s.lock_file)}};
  const json internal = {{"buildArgs", s.build_args}, {"sourceDateEpoch", s.source_date_epoch}};
  const json definition = {{"buildType", s.build_type},
                           {"externalParameters", external},
                           {"internalParameters", internal},
                           {"resolvedDependencies", descriptors_json(s.resolved_dependencies)}};
  const json run = {{"builder", {{"id", s.builder_id}, {"version", s.builder_version}}},
                    {"metadata",
                     {{"invocationId", s.invocation_id},
                      {"startedOn", s.started_on},
                      {"finishedOn", s.finished_on}}},
                    {"byproducts", descriptors_json(s.byproducts)}};
  return {{"_type", k_statement_type},
          {"subject", descriptors_json(s.subjects)},
          {"predicateType", k_slsa_predicate_type},
          {"predicate", {{"buildDefinition", definition}, {"runDetails", run}}}};
}

template <> Result<Statement> from_json<Statement>(const json& value, const std::string& origin) {
  FieldReader r(value, origin, "", "the statement");
  read_fixed(r, "_type", k_statement_type);
  read_fixed(r, "predicateType", k_slsa_predicate_type);
  Statement s;
  s.subjects = read_descriptors(r, "subject");
  if (!r.error() && s.subjects.empty()) {
    r.fail("subject", "must name the image");
  }
  FieldReader predicate = r.sub("predicate");
  read_build_definition(predicate, s);
  read_run_details(predicate, s);
  r.merge(predicate);
  ENVLOCK_TRY(r.status());
  return s;
}

Result<Statement> read_statement(const std::filesystem::path& path) {
  return read_record<Statement>(path);
}

Status write_statement(const std::filesystem::path& path, const Statement& statement) {
  return util::write_json_file(path, to_json(statement));
}

} // namespace envlock::formats
