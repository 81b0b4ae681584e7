#include "sbom/python_packages.hpp"

#include "sbom/purl.hpp"
#include "util/strings.hpp"
#include "verify/probes/python_env.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace envlock::sbom {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t k_wheel_file_limit = 1 << 20;

// The "Tag:" lines of a dist-info's WHEEL file, sorted; empty when it has none.
std::vector<std::string> installed_tags(const verify::RunContext& context,
                                        const fs::path& dist_info) {
  std::vector<std::string> out;
  const auto text = context.read(dist_info / "WHEEL", k_wheel_file_limit);
  if (!text) {
    return out;
  }
  for (const auto& line : util::split(*text, '\n')) {
    const std::string_view view = util::trim(line);
    if (view.starts_with("Tag:")) {
      out.emplace_back(util::trim(view.substr(4)));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The wheel of `files` whose tags are the installed ones; nothing when none or several are.
const uv::Artifact* matching_wheel(const uv::PackageArtifacts& files,
                                   const std::vector<std::string>& tags) {
  const uv::Artifact* found = nullptr;
  for (const auto& wheel : files.wheels) {
    if (uv::wheel_tags(wheel.filename) == tags) {
      if (found != nullptr) {
        return nullptr;
      }
      found = &wheel;
    }
  }
  return found;
}

struct LockedEntry {
  const lock::UvPackage* package = nullptr;
  const uv::PackageArtifacts* files = nullptr;
};

// What the lock says of one installed distribution, as component properties and its hash.
void match_to_lock(const verify::RunContext& context, const verify::Distribution& dist,
                   const std::vector<LockedEntry>& entries, Component& component) {
  const LockedEntry* same = nullptr;
  for (const auto& entry : entries) {
    const std::string& kind = entry.package->source_kind;
    // uv installs a folder's project at whatever version the folder says.
    const bool by_name = entry.package->version.empty() || kind == "editable" || kind == "path" ||
                         kind == "directory" || kind == "virtual";
    if (by_name || entry.package->version == dist.version) {
      same = &entry;
    }
  }
  if (same == nullptr) {
    std::vector<std::string> versions;
    for (const auto& entry : entries) {
      versions.push_back(entry.package->version.empty() ? "(dynamic)" : entry.package->version);
    }
    component.properties.push_back(
        {"envlock:lock", "version differs (uv.lock: " + util::join(versions, ", ") + ")"});
    return;
  }
  const lock::UvPackage& package = *same->package;
  component.properties.push_back({"envlock:lock", "locked"});
  component.properties.push_back(
      {"envlock:uv:source", package.source_kind + " " + package.source_location});
  if (same->files == nullptr || (same->files->wheels.empty() && !same->files->sdist)) {
    return;
  }
  const auto tags = installed_tags(context, dist.dist_info);
  if (const uv::Artifact* wheel = matching_wheel(*same->files, tags); wheel != nullptr) {
    component.sha256 = wheel->sha256;
    component.properties.push_back({"envlock:uv:wheel", wheel->filename});
    if (wheel->location.find("://") != std::string::npos) {
      component.references.push_back({"distribution", wheel->location});
    }
    return;
  }
  component.properties.push_back(
      {"envlock:uv:wheel",
       tags.empty() ? "none: the installed WHEEL file lists no tags"
                    : "none of uv.lock's " + std::to_string(same->files->wheels.size()) +
                          " wheels has the installed tags (" + util::join(tags, " ") + ")"});
}

} // namespace

PythonPart python_packages(const verify::RunContext& context,
                           const std::vector<lock::UvPackage>& locked,
                           const std::vector<uv::PackageArtifacts>& artifacts,
                           LockGiven lock_given) {
  PythonPart out;
  const verify::PythonEnvironment& env = context.python();
  out.properties.push_back(
      {"envlock:python:environment", verify::describe_environment(context, env)});

  std::map<std::string, std::vector<LockedEntry>> by_name;
  for (const auto& package : locked) {
    LockedEntry entry{&package, nullptr};
    for (const auto& files : artifacts) {
      if (files.name == package.name && files.version == package.version) {
        entry.files = &files;
      }
    }
    by_name[verify::pep503_name(package.name)].push_back(entry);
  }

  std::set<std::string> installed_keys;
  std::set<std::string> refs;
  const auto add_site = [&](const fs::path& site, bool inherited) {
    verify::PythonEnvironment one;
    one.sites = {site};
    for (const auto& [key, dist] : verify::scan_distributions(context, one)) {
      const bool shadowed = installed_keys.contains(key);
      installed_keys.insert(key);
      Component component;
      component.type = "library";
      component.name = dist.name;
      component.version = dist.version;
      component.purl = pypi_purl(key, dist.version);
      const std::string shown = context.shown(dist.dist_info);
      component.bom_ref =
          refs.contains(component.purl) ? component.purl + "#" + shown : component.purl;
      refs.insert(component.bom_ref);
      component.properties.push_back({"envlock:python:dist-info", shown});
      if (inherited) {
        component.properties.push_back({"envlock:python:inherited", "true"});
      }
      if (shadowed) {
        component.properties.push_back(
            {"envlock:python:shadowed", "true (a folder earlier on the path holds " + key + ")"});
      }
      if (!dist.problem.empty()) {
        component.properties.push_back({"envlock:python:metadata", dist.problem});
      }
      if (lock_given == LockGiven::yes) {
        const auto it = by_name.find(key);
        if (it == by_name.end()) {
          component.properties.push_back({"envlock:lock", "not in uv.lock"});
        } else {
          match_to_lock(context, dist, it->second, component);
        }
      }
      out.components.push_back(std::move(component));
    }
  };
  for (const auto& site : env.sites) {
    add_site(site, false);
  }
  for (const auto& site : env.inherited_sites) {
    add_site(site, true);
  }
  for (const auto& [key, entries] : by_name) {
    if (installed_keys.contains(key)) {
      continue;
    }
    for (const auto& entry : entries) {
      if (entry.package->source_kind == "virtual") {
        continue; // the project itself: uv never installs it
      }
      if (entry.package->not_selected) {
        out.properties.push_back(
            {"envlock:python:locked-not-selected", pypi_purl(key, entry.package->version)});
        continue; // the lock's uv sync does not install it here
      }
      out.properties.push_back(
          {"envlock:python:locked-not-installed", pypi_purl(key, entry.package->version)});
    }
  }
  return out;
}

} // namespace envlock::sbom
