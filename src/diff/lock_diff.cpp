#include "diff/lock_diff.hpp"

#include "diff/core_packages.hpp"
#include "util/strings.hpp"
#include "uv/version.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace envlock::diff {

using nlohmann::json;
using uv::compare_versions;
using uv::is_major_change;
using uv::parse_py_version;
using uv::version_text_less;

const char* to_string(PackageChangeKind kind) {
  switch (kind) {
  case PackageChangeKind::added:
    return "added";
  case PackageChangeKind::removed:
    return "removed";
  case PackageChangeKind::upgraded:
    return "upgraded";
  case PackageChangeKind::downgraded:
    return "downgraded";
  case PackageChangeKind::changed:
    return "changed";
  }
  return "changed";
}

namespace {

constexpr const char* k_no_version = "(no version)";

// Collects the changes of one section.
class SectionBuilder {
public:
  SectionBuilder(std::string id, std::string title) {
    m_section.id = std::move(id);
    m_section.title = std::move(title);
  }
  void field(const std::string& name, const std::string& a, const std::string& b) {
    if (a != b) {
      m_section.changes.push_back({name, a, b});
    }
  }
  void optional_field(const std::string& name, const std::optional<std::string>& a,
                      const std::optional<std::string>& b) {
    if (a != b) {
      m_section.changes.push_back({name, a, b});
    }
  }
  void append_to(std::vector<Section>& out) {
    if (!m_section.changes.empty()) {
      out.push_back(std::move(m_section));
    }
  }

private:
  Section m_section;
};

template <typename Map> std::set<std::string> key_union(const Map& a, const Map& b) {
  std::set<std::string> keys;
  for (const auto& [k, v] : a) {
    keys.insert(k);
  }
  for (const auto& [k, v] : b) {
    keys.insert(k);
  }
  return keys;
}

std::optional<std::string> lookup(const std::map<std::string, std::string>& m,
                                  const std::string& k) {
  const auto it = m.find(k);
  return it == m.end() ? std::nullopt : std::optional<std::string>(it->second);
}

// A JSON value flattened to "path" -> compact JSON text (strings unquoted), for recipe and
// expect.host comparisons.
void flatten(const json& value, const std::string& path, std::map<std::string, std::string>& out) {
  if (value.is_object() && !value.empty()) {
    for (const auto& [k, v] : value.items()) {
      flatten(v, path.empty() ? k : path + "." + k, out);
    }
  } else if (value.is_string()) {
    out[path] = value.get<std::string>();
  } else {
    out[path] = value.dump();
  }
}

std::map<std::string, std::string> flattened(const json& value, const std::string& prefix) {
  std::map<std::string, std::string> out;
  if (!value.is_null() && !(value.is_object() && value.empty())) {
    flatten(value, prefix, out);
  }
  return out;
}

void diff_maps(SectionBuilder& b, const std::map<std::string, std::string>& a,
               const std::map<std::string, std::string>& c) {
  for (const auto& k : key_union(a, c)) {
    b.optional_field(k, lookup(a, k), lookup(c, k));
  }
}

std::string source_text(const lock::UvPackage& p) {
  return p.source_location.empty() ? p.source_kind : p.source_kind + " " + p.source_location;
}

// One package name's entries in one lock: which versions, from which sources.
struct PackageVersions {
  std::map<std::string, std::set<std::string>> sources_of; // version -> its sources
  std::set<std::string> sources;

  bool operator==(const PackageVersions&) const = default;

  // The distinct versions in PEP 440 order; a package without a version shows as such.
  [[nodiscard]] std::vector<std::string> versions() const {
    std::vector<std::string> out;
    for (const auto& [version, from] : sources_of) {
      out.push_back(version);
    }
    std::sort(out.begin(), out.end(),
              [](const std::string& a, const std::string& b) { return version_text_less(a, b); });
    return out;
  }
  [[nodiscard]] std::string version_text() const {
    std::vector<std::string> shown;
    for (const auto& v : versions()) {
      shown.push_back(v.empty() ? k_no_version : v);
    }
    return util::join(shown, ", ");
  }
  // "1.0: registry A; 2.0: git B", for when only the pairing of versions and sources changed.
  [[nodiscard]] std::string pairing_text() const {
    std::vector<std::string> parts;
    for (const auto& v : versions()) {
      const auto& from = sources_of.at(v);
      parts.push_back((v.empty() ? k_no_version : v) + ": " +
                      util::join({from.begin(), from.end()}, ", "));
    }
    return util::join(parts, "; ");
  }
  [[nodiscard]] bool one_version_from_several_sources() const {
    return std::any_of(sources_of.begin(), sources_of.end(),
                       [](const auto& entry) { return entry.second.size() > 1; });
  }
};

std::map<std::string, PackageVersions> by_name(const std::vector<lock::UvPackage>& packages) {
  std::map<std::string, PackageVersions> out;
  for (const auto& p : packages) {
    out[p.name].sources_of[p.version].insert(source_text(p));
    out[p.name].sources.insert(source_text(p));
  }
  return out;
}

bool only_local_differs(const std::string& a, const std::string& b) {
  auto va = parse_py_version(a);
  auto vb = parse_py_version(b);
  if (!va || !vb || va->local == vb->local) {
    return false;
  }
  va->local.clear();
  vb->local.clear();
  return std::is_eq(compare(*va, *vb));
}

std::string joined(const std::set<std::string>& items) {
  return util::join({items.begin(), items.end()}, ", ");
}

// The sources of a package present on one side only, when one version comes from several.
std::string several_sources(const PackageVersions& side) {
  return side.one_version_from_several_sources() ? joined(side.sources) : std::string();
}

std::optional<PackageChange> compare_package(const std::string& name, const PackageVersions* a,
                                             const PackageVersions* b) {
  if (a == nullptr && b == nullptr) {
    return std::nullopt;
  }
  PackageChange c;
  c.name = name;
  if (a == nullptr) {
    c.kind = PackageChangeKind::added;
    c.new_version = b->version_text();
    c.sources = several_sources(*b);
    return c;
  }
  if (b == nullptr) {
    c.kind = PackageChangeKind::removed;
    c.old_version = a->version_text();
    c.sources = several_sources(*a);
    return c;
  }
  if (*a == *b) {
    return std::nullopt;
  }
  c.old_version = a->version_text();
  c.new_version = b->version_text();
  if (a->sources != b->sources) {
    c.old_source = joined(a->sources);
    c.new_source = joined(b->sources);
  } else if (a->versions() == b->versions()) {
    // The same versions and sources, paired differently.
    c.old_source = a->pairing_text();
    c.new_source = b->pairing_text();
  } else if (a->one_version_from_several_sources() || b->one_version_from_several_sources()) {
    c.sources = joined(a->sources);
  }
  c.kind = PackageChangeKind::changed;
  const auto old_versions = a->versions();
  const auto new_versions = b->versions();
  if (old_versions.size() == 1 && new_versions.size() == 1) {
    const std::string& from = old_versions[0];
    const std::string& to = new_versions[0];
    const auto order = compare_versions(from, to);
    if (only_local_differs(from, to)) {
      // "1.0.0+b7643bd" -> "1.0.0+9edee0c": a rebuild from another commit, neither up nor down.
    } else if (order && std::is_lt(*order)) {
      c.kind = PackageChangeKind::upgraded;
    } else if (order && std::is_gt(*order)) {
      c.kind = PackageChangeKind::downgraded;
    }
    c.major = is_major_change(from, to);
  }
  return c;
}

std::vector<PackageChange> diff_packages(const std::vector<lock::UvPackage>& old_packages,
                                         const std::vector<lock::UvPackage>& new_packages) {
  const auto a = by_name(old_packages);
  const auto b = by_name(new_packages);
  std::vector<PackageChange> out;
  for (const auto& name : key_union(a, b)) {
    const auto ia = a.find(name);
    const auto ib = b.find(name);
    auto change = compare_package(name, ia == a.end() ? nullptr : &ia->second,
                                  ib == b.end() ? nullptr : &ib->second);
    if (change) {
      if (change->kind != PackageChangeKind::removed) {
        change->core = core_dependency_of(name);
      }
      out.push_back(std::move(*change));
    }
  }
  return out;
}

void diff_expect(std::vector<Section>& out, const lock::Expect& a, const lock::Expect& b) {
  SectionBuilder s("expect", "CUDA, NCCL, PyTorch and Python expectations");
  s.field("cuda", a.cuda, b.cuda);
  s.field("nccl", a.nccl, b.nccl);
  s.field("pytorch", a.pytorch, b.pytorch);
  s.field("python", a.python, b.python);
  s.field("gpus.count", std::to_string(a.gpus.count), std::to_string(b.gpus.count));
  s.field("gpus.model", a.gpus.model, b.gpus.model);
  diff_maps(s, flattened(json(a.nccl_busbw_gbps), "nccl_busbw_gbps"),
            flattened(json(b.nccl_busbw_gbps), "nccl_busbw_gbps"));
  diff_maps(s, flattened(lock::host_expect_to_json(a.host), "host"),
            flattened(lock::host_expect_to_json(b.host), "host"));
  diff_maps(s, flattened(lock::resume_expect_to_json(a.resume), "resume"),
            flattened(lock::resume_expect_to_json(b.resume), "resume"));
  diff_maps(s, flattened(lock::links_expect_to_json(a.links), "links"),
            flattened(lock::links_expect_to_json(b.links), "links"));
  s.append_to(out);
}

void diff_sources(std::vector<Section>& out, const lock::Lock& a, const lock::Lock& b) {
  SectionBuilder s("sources", "Source commits");
  for (const auto& name : key_union(a.sources, b.sources)) {
    const auto ia = a.sources.find(name);
    const auto ib = b.sources.find(name);
    const lock::GitPin none;
    const lock::GitPin& pa = ia == a.sources.end() ? none : ia->second;
    const lock::GitPin& pb = ib == b.sources.end() ? none : ib->second;
    auto opt = [](bool present, const std::string& v) {
      return present ? std::optional<std::string>(v) : std::nullopt;
    };
    const bool ha = ia != a.sources.end();
    const bool hb = ib != b.sources.end();
    s.optional_field(name + ".git", opt(ha, pa.git), opt(hb, pb.git));
    s.optional_field(name + ".ref", opt(ha, pa.ref), opt(hb, pb.ref));
    s.optional_field(name + ".commit", opt(ha, pa.commit), opt(hb, pb.commit));
  }
  s.append_to(out);
}

void diff_python(std::vector<Section>& out, const lock::Python& a, const lock::Python& b) {
  SectionBuilder s("python", "Python environment (uv)");
  s.field("project", a.project, b.project);
  s.field("uv.version", a.uv_version, b.uv_version);
  s.field("sync_args", util::join(a.sync_args, " "), util::join(b.sync_args, " "));
  s.field("uv_lock.path", a.uv_lock.path, b.uv_lock.path);
  s.field("uv_lock.sha256", a.uv_lock.sha256, b.uv_lock.sha256);
  s.field("uv_lock.requires_python", a.uv_lock.requires_python, b.uv_lock.requires_python);
  s.field("uv_lock.packages", std::to_string(a.uv_lock.packages.size()),
          std::to_string(b.uv_lock.packages.size()));
  // The packages the lock holds that its uv sync does not install (lock::UvPackage::not_selected).
  const auto not_selected = [](const lock::UvLockPin& pin) {
    std::vector<std::string> names;
    for (const auto& p : pin.packages) {
      if (p.not_selected) {
        names.push_back(p.name);
      }
    }
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return util::join(names, ", ");
  };
  s.field("uv_lock.packages not selected", not_selected(a.uv_lock), not_selected(b.uv_lock));
  s.append_to(out);
}

// The upstream recipe as fields a reviewer reads: where it comes from, its sha256, and each image
// its FROM lines name, by the text the FROM writes ("recipe.images[${FROM_IMAGE_NAME}]":
// NAME@DIGEST).
std::map<std::string, std::string> recipe_fields(const lock::Lock& l) {
  std::map<std::string, std::string> out;
  if (!l.recipe) {
    return out;
  }
  const lock::Recipe& r = *l.recipe;
  out = {{"recipe.upstream", r.upstream},
         {"recipe.path", r.path},
         {"recipe.target", r.target},
         {"recipe.sha256", r.sha256}};
  for (const auto& image : r.images) {
    out["recipe.images[" + image.written + "]"] = image.image + "@" + image.digest;
  }
  return out;
}

// The lock's build.context files as the lock writes them, under "context".
json context_json(const lock::Lock& l) {
  json out = json::object();
  if (l.context) {
    out["context"] = lock::to_json(l).at("context");
  }
  return out;
}

// The training sample and how it is launched, as fields a reviewer reads: each file by its path
// ("training.data[data/x.bin]": "SHA256, N bytes"), the data prefix, the checkpoint folder, the
// launch command and each launch folder.
std::map<std::string, std::string> training_fields(const lock::Lock& l) {
  std::map<std::string, std::string> out;
  if (l.training) {
    for (const auto& [field, file] : lock::training_files(*l.training)) {
      out[field + "[" + file->path + "]"] =
          file->sha256 + ", " + std::to_string(file->size) + " bytes";
    }
    if (l.training->data) {
      out["training.data.prefix"] = l.training->data->prefix;
    }
    if (!l.training->checkpoint_dir.empty()) {
      out["training.checkpoint_dir"] = l.training->checkpoint_dir;
    }
  }
  if (l.launch) {
    if (!l.launch->command.empty()) {
      out["launch.command"] = l.launch->command;
    }
    for (const auto& [name, path] : l.launch->directories) {
      out["launch.directories." + name] = path;
    }
  }
  return out;
}

} // namespace

LockDiff diff_locks(const lock::Lock& a, const lock::Lock& b) {
  LockDiff d;
  SectionBuilder base("base_image", "Base image");
  base.field("reference", a.base_image.reference, b.base_image.reference);
  base.field("tag", a.base_image.tag, b.base_image.tag);
  base.field("digest", a.base_image.digest, b.base_image.digest);
  base.field("platform", a.base_image.platform, b.base_image.platform);
  base.field("platform_digest", a.base_image.platform_digest, b.base_image.platform_digest);
  base.append_to(d.sections);

  diff_expect(d.sections, a.expect, b.expect);
  diff_sources(d.sections, a, b);
  diff_python(d.sections, a.python, b.python);

  SectionBuilder args("build_args", "Build arguments");
  diff_maps(args, a.build_args, b.build_args);
  args.append_to(d.sections);

  SectionBuilder recipe("recipe", "Build recipe");
  diff_maps(recipe, recipe_fields(a), recipe_fields(b));
  recipe.append_to(d.sections);

  SectionBuilder enroot("enroot", "Enroot options");
  enroot.field("squash_options", a.enroot.squash_options, b.enroot.squash_options);
  enroot.field("source_date_epoch", std::to_string(a.enroot.source_date_epoch),
               std::to_string(b.enroot.source_date_epoch));
  enroot.append_to(d.sections);

  SectionBuilder image("image", "Target image and manifest");
  image.field("image.name", a.image.name, b.image.name);
  image.field("image.tag", a.image.tag, b.image.tag);
  image.field("image.repository", a.image.repository, b.image.repository);
  image.field("manifest.path", a.manifest_path, b.manifest_path);
  image.field("manifest.sha256", a.manifest_sha256, b.manifest_sha256);
  diff_maps(image, flattened(context_json(a), ""), flattened(context_json(b), ""));
  image.append_to(d.sections);

  SectionBuilder training("training", "Training sample and launch");
  diff_maps(training, training_fields(a), training_fields(b));
  training.append_to(d.sections);

  d.packages = diff_packages(a.python.uv_lock.packages, b.python.uv_lock.packages);
  for (const auto& p : d.packages) {
    if (p.core) {
      d.core_warnings.push_back(p.name + " " + p.new_version + " (" + to_string(p.kind) +
                                ") replaces the base image's " + *p.core +
                                ": check it against the image's tested combination");
    }
  }
  return d;
}

} // namespace envlock::diff
