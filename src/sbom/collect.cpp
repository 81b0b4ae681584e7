#include "sbom/collect.hpp"

#include "sbom/dpkg_status.hpp"
#include "sbom/gpu_libraries.hpp"
#include "sbom/purl.hpp"
#include "sbom/python_packages.hpp"
#include "util/clock.hpp"
#include "util/strings.hpp"
#include "uv/artifacts.hpp"
#include "verify/probes/probes.hpp"
#include "verify/run_context.hpp"

#include <algorithm>
#include <chrono>
#include <tuple>

namespace envlock::sbom {

namespace {

// "Megatron-LM" from "https://github.com/NVIDIA/Megatron-LM.git", "megatron-lm" from a folder.
std::string repository_name(std::string url) {
  while (!url.empty() && url.back() == '/') {
    url.pop_back();
  }
  if (url.ends_with(".git")) {
    url.resize(url.size() - 4);
  }
  const auto cut = url.find_last_of("/:");
  return cut == std::string::npos ? url : url.substr(cut + 1);
}

// pkg:github/OWNER/REPO@COMMIT for a repository on github.com; empty for any other.
std::string github_purl(const std::string& url, const std::string& commit) {
  for (const char* prefix : {"https://github.com/", "git@github.com:", "ssh://git@github.com/"}) {
    if (!url.starts_with(prefix)) {
      continue;
    }
    std::string path = url.substr(std::string_view(prefix).size());
    if (path.ends_with(".git")) {
      path.resize(path.size() - 4);
    }
    const auto parts = util::split(path, '/');
    if (parts.size() == 2 && !parts[0].empty() && !parts[1].empty()) {
      return make_purl("github", util::to_lower(parts[0]), util::to_lower(parts[1]), commit);
    }
  }
  return {};
}

void megatron_component(const verify::RunContext& context, Bom& bom) {
  const auto checks = verify::probe_megatron(context);
  const verify::CheckResult& check = checks.front();
  const auto source = context.lock().sources.find("megatron");
  if (check.found.empty() || source == context.lock().sources.end()) {
    bom.properties.push_back({"envlock:megatron", "not found: " + check.reason});
    return;
  }
  const lock::GitPin& pin = source->second;
  Component component;
  component.type = "library";
  component.name = repository_name(pin.git);
  component.version = check.found;
  component.bom_ref = "source:megatron";
  component.description = "Megatron-LM source at a commit";
  component.purl = github_purl(pin.git, check.found);
  if (!pin.git.empty()) {
    component.references.push_back({"vcs", pin.git});
  }
  if (check.details.contains("source") && check.details["source"].is_string()) {
    component.properties.push_back(
        {"envlock:found-in", check.details["source"].get<std::string>()});
  }
  component.properties.push_back({"envlock:lock", check.outcome == verify::Outcome::pass
                                                      ? "locked (" + pin.ref + ")"
                                                      : check.reason});
  bom.components.push_back(std::move(component));
}

Component subject_of(const SbomInputs& inputs) {
  Component subject;
  subject.type = "container";
  const lock::Lock* lock = inputs.lock ? &*inputs.lock : nullptr;
  subject.name = !inputs.image.name.empty()                           ? inputs.image.name
                 : lock != nullptr && !lock->image.repository.empty() ? lock->image.repository
                 : lock != nullptr && !lock->image.name.empty()       ? lock->image.name
                                                                      : "image";
  subject.version = !inputs.image.digest.empty() ? inputs.image.digest
                    : lock != nullptr            ? lock->image.tag
                                                 : std::string();
  subject.bom_ref = "image";
  if (!inputs.image.digest.empty() && !inputs.image.name.empty()) {
    subject.purl = oci_purl(inputs.image.name, inputs.image.digest);
  }
  if (!inputs.image.reference.empty()) {
    subject.properties.push_back({"envlock:image:reference", inputs.image.reference});
  }
  if (!inputs.image.sqsh_sha256.empty()) {
    subject.properties.push_back({"envlock:sqsh:file", inputs.image.sqsh_file});
    subject.properties.push_back({"envlock:sqsh:sha256", inputs.image.sqsh_sha256});
  }
  if (lock != nullptr && !lock->base_image.name.empty()) {
    const lock::ImagePin& base = lock->base_image;
    Component ancestor;
    ancestor.type = "container";
    ancestor.name = base.name;
    ancestor.version = base.platform_digest;
    ancestor.bom_ref = "base-image";
    ancestor.purl = oci_purl(base.name, base.platform_digest);
    ancestor.description = "the base image, as the lock pins it";
    ancestor.properties.push_back({"envlock:image:reference", base.reference});
    ancestor.properties.push_back({"envlock:image:index-digest", base.digest});
    ancestor.properties.push_back({"envlock:image:platform", base.platform});
    subject.ancestors.push_back(std::move(ancestor));
  }
  return subject;
}

std::chrono::system_clock::time_point epoch_time(std::int64_t seconds) {
  return std::chrono::system_clock::time_point(std::chrono::seconds(seconds));
}

void append(std::vector<Component>& to, std::vector<Component> from) {
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}

void append(std::vector<Property>& to, const std::vector<Property>& from) {
  to.insert(to.end(), from.begin(), from.end());
}

} // namespace

Result<Bom> collect_bom(const SbomInputs& inputs) {
  const lock::Lock no_lock;
  const lock::Lock& lock = inputs.lock ? *inputs.lock : no_lock;
  verify::VerifyOptions options;
  options.root = inputs.root;
  ENVLOCK_TRY_ASSIGN(const verify::RunContext context, verify::RunContext::create(lock, options));

  std::vector<uv::PackageArtifacts> artifacts;
  if (!inputs.uv_lock_text.empty()) {
    ENVLOCK_TRY_ASSIGN(artifacts, uv::read_artifacts(inputs.uv_lock_text, inputs.uv_lock_origin));
  }
  Bom bom;
  bom.envlock_version = inputs.envlock_version;
  bom.subject = subject_of(inputs);
  if (inputs.lock) {
    bom.properties.push_back({"envlock:lock:sha256", lock::lock_sha256(lock)});
    bom.properties.push_back({"envlock:uv.lock:sha256", lock.python.uv_lock.sha256});
  } else {
    bom.properties.push_back({"envlock:lock", "none given: nothing compared with a lock"});
  }
  PythonPart python = python_packages(context, lock.python.uv_lock.packages, artifacts,
                                      inputs.lock ? LockGiven::yes : LockGiven::no);
  append(bom.components, std::move(python.components));
  append(bom.properties, python.properties);
  SystemPart system = system_packages(context);
  append(bom.components, std::move(system.components));
  append(bom.properties, system.properties);
  GpuPart gpu = gpu_libraries(context);
  append(bom.components, std::move(gpu.components));
  append(bom.properties, gpu.properties);
  megatron_component(context, bom);
  for (const auto& warning : context.warnings()) {
    bom.properties.push_back({"envlock:warning", warning});
  }
  std::sort(bom.properties.begin(), bom.properties.end(), [](const Property& a, const Property& b) {
    return std::tie(a.name, a.value) < std::tie(b.name, b.value);
  });
  if (inputs.source_date_epoch) {
    bom.timestamp = util::rfc3339_utc(epoch_time(*inputs.source_date_epoch));
  } else if (inputs.lock) {
    bom.timestamp = util::rfc3339_utc(epoch_time(lock.enroot.source_date_epoch));
  }
  return bom;
}

} // namespace envlock::sbom
