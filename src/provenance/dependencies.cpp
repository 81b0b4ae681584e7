// predicate.buildDefinition.resolvedDependencies: every input of the build, pinned by digest.
// Names follow the lock's field names for pinned references and file names for files.
#include "build/recipe.hpp"
#include "git/location.hpp"
#include "provenance/statement.hpp"

#include <filesystem>

namespace envlock::provenance {

using formats::digest_set;
using formats::ResourceDescriptor;

namespace {

void add_base_image(const lock::ImagePin& base, std::vector<ResourceDescriptor>& out) {
  const std::string by_tag =
      base.tag.empty() ? base.name + "@" + base.digest : base.name + ":" + base.tag;
  out.push_back({"base_image",
                 "docker://" + by_tag,
                 digest_set(base.digest),
                 base.media_type,
                 {{"reference", base.reference}, {"platform", base.platform}}});
  if (!base.platform_digest.empty() && base.platform_digest != base.digest) {
    out.push_back({"base_image.platform_digest",
                   "docker://" + base.name + "@" + base.digest,
                   digest_set(base.platform_digest),
                   "",
                   {{"platform", base.platform}}});
  }
}

void add_sources(const std::map<std::string, lock::GitPin>& sources,
                 std::vector<ResourceDescriptor>& out) {
  for (const auto& [name, pin] : sources) {
    const std::string location = git::redact_location(pin.git);
    ResourceDescriptor source{"sources." + name,
                              "",
                              {{"gitCommit", pin.commit}},
                              "",
                              {{"git", location}, {"ref", pin.ref}}};
    if (git::classify_location(pin.git) == git::LocationKind::remote_url &&
        location.find("://") != std::string::npos) {
      source.uri = "git+" + location + "@" + pin.ref;
    }
    out.push_back(std::move(source));
  }
}

// The upstream recipe, when the lock has one: the Dockerfile by its sha256 (where it comes from
// in the annotations), then each image its FROM lines name, by digest.
void add_recipe(const lock::Lock& lock, std::vector<ResourceDescriptor>& out) {
  if (!lock.recipe) {
    return;
  }
  const lock::Recipe& r = *lock.recipe;
  std::map<std::string, std::string> annotations = {
      {"upstream", r.upstream}, {"path", r.path}, {"target", r.target}};
  if (const auto pin = lock.sources.find(r.upstream); pin != lock.sources.end()) {
    annotations["gitCommit"] = pin->second.commit;
  }
  out.push_back({"recipe", "", {{"sha256", r.sha256}}, "", std::move(annotations)});
  for (const auto& image : r.images) {
    ResourceDescriptor dependency{"recipe.images[" + r.path + ":" + std::to_string(image.line) +
                                      "]",
                                  "docker://" + image.image,
                                  digest_set(image.digest),
                                  "",
                                  {{"from", image.written}}};
    if (!image.platform_digest.empty() && image.platform_digest != image.digest) {
      dependency.annotations["platform_digest"] = image.platform_digest;
    }
    out.push_back(std::move(dependency));
  }
}

ResourceDescriptor file(const std::string& name, const std::string& sha256) {
  return {name, "", {{"sha256", sha256}}, "", {}};
}

// `name` under the project folder, without "./".
std::string in_project(const std::string& project, const std::string& name) {
  const std::string path =
      (std::filesystem::path(project) / name).lexically_normal().generic_string();
  return path.rfind("./", 0) == 0 ? path.substr(2) : path;
}

} // namespace

std::vector<ResourceDescriptor> resolved_dependencies(const ProvenanceInputs& inputs) {
  const lock::Lock& lock = inputs.lock;
  std::vector<ResourceDescriptor> out;
  add_base_image(lock.base_image, out);
  add_sources(lock.sources, out);
  add_recipe(lock, out);
  out.push_back(file(lock.python.uv_lock.path, lock.python.uv_lock.sha256));
  out.push_back(
      file(in_project(lock.python.project, "pyproject.toml"), lock.python.pyproject_sha256));
  out.push_back(file("Dockerfile", inputs.build.dockerfile_sha256));
  out.push_back(file("context.tar", inputs.build.context_sha256));
  return out;
}

} // namespace envlock::provenance
