#include "resolve/drift.hpp"

#include "git/location.hpp"
#include "git/ref.hpp"
#include "resolve/drift_recipe.hpp"
#include "resolve/drift_uv.hpp"
#include "util/interrupt.hpp"
#include "util/sha256.hpp"

#include <set>

namespace envlock::resolve {

using nlohmann::json;

namespace {

std::string shown(const json* value) {
  return value == nullptr ? std::string("nothing") : value->dump();
}

// Compares two JSON values and appends a line for each leaf that differs.
void compare(const std::string& path, const json* in_lock, const json* in_manifest,
             std::vector<std::string>& out) {
  if (in_lock != nullptr && in_manifest != nullptr && in_lock->is_object() &&
      in_manifest->is_object()) {
    std::set<std::string> keys;
    for (const auto& [k, v] : in_lock->items()) {
      keys.insert(k);
    }
    for (const auto& [k, v] : in_manifest->items()) {
      keys.insert(k);
    }
    for (const auto& k : keys) {
      const auto a = in_lock->find(k);
      const auto b = in_manifest->find(k);
      compare(path + "." + k, a == in_lock->end() ? nullptr : &*a,
              b == in_manifest->end() ? nullptr : &*b, out);
    }
    return;
  }
  if (in_lock == nullptr || in_manifest == nullptr || *in_lock != *in_manifest) {
    out.push_back("drift: " + path + ": lock has " + shown(in_lock) + ", manifest has " +
                  shown(in_manifest));
  }
}

void compare_file(const std::string& path, const std::string& in_lock, const std::string& now,
                  const std::string& file, std::vector<std::string>& out) {
  if (in_lock != now) {
    out.push_back("drift: " + path + ": lock has " + in_lock + ", " + file + " is now " + now);
  }
}

// training as the manifest gives it: the files' paths and the checkpoint folder, no hashes.
json training_view(const lock::Lock& lock) {
  if (!lock.training) {
    return nullptr;
  }
  const lock::Training& t = *lock.training;
  json out = json::object();
  if (t.config) {
    out["config"] = t.config->path;
  }
  if (t.tokenizer) {
    out["tokenizer"] = json::array();
    for (const auto& file : *t.tokenizer) {
      out["tokenizer"].push_back(file.path);
    }
  }
  if (t.data) {
    out["data"] = t.data->prefix;
  }
  if (!t.checkpoint_dir.empty()) {
    out["checkpoint_dir"] = t.checkpoint_dir;
  }
  return out;
}

// The manifest-derived part of a lock's JSON: what `lock --check` compares.
json manifest_view(const lock::Lock& lock) {
  json sources = json::object();
  for (const auto& [name, pin] : lock.sources) {
    sources[name] = {{"git", pin.git}, {"ref", pin.ref}};
  }
  const json full = to_json(lock);
  const json& python = full["python"];
  return {{"base_image",
           {{"reference", lock.base_image.reference}, {"platform", lock.base_image.platform}}},
          {"build_args", full["build_args"]},
          {"enroot", full["enroot"]},
          {"expect", full["expect"]},
          {"image", full["image"]},
          {"manifest", {{"path", lock.manifest_path}}},
          {"python",
           {{"project", python["project"]},
            {"uv", python["uv"]},
            {"sync_args", python["sync_args"]},
            {"uv_lock", {{"path", lock.python.uv_lock.path}}}}},
          {"sources", sources},
          {"training", training_view(lock)},
          {"launch", lock.launch ? launch_to_json(*lock.launch) : json()}};
}

// Each training file whose path the manifest still names, hashed again: "drift: training.data
// data/x.bin: sha256 NEW (N bytes), the lock has OLD (M bytes)".
void training_drift(const manifest::Manifest& manifest, const lock::Lock& lock,
                    const lock::Lock& expected, const FileProgress& progress,
                    std::vector<std::string>& out) {
  if (!lock.training || !expected.training || training_view(lock) != training_view(expected)) {
    return;
  }
  for (const auto& [field, file] : lock::training_files(*lock.training)) {
    const auto shown = [&, file = file](std::uint64_t hashed) {
      if (progress) {
        progress(file->path, hashed, static_cast<std::uint64_t>(file->size));
      }
    };
    const std::string locked = file->sha256 + " (" + std::to_string(file->size) + " bytes)";
    auto now = util::sha256_file(manifest.dir / file->path, shown);
    if (!now && util::interrupted()) {
      return; // not drift: envlock dies of the signal once the check unwinds
    }
    if (!now) {
      const std::string& message = now.error().message;
      out.push_back("drift: " + field + " " + file->path + ": cannot read (" +
                    message.substr(message.rfind(": ") + 2) + "), the lock has " + locked);
    } else if (now->sha256 != file->sha256 || now->size != static_cast<std::uint64_t>(file->size)) {
      out.push_back("drift: " + field + " " + file->path + ": sha256 " + now->sha256 + " (" +
                    std::to_string(now->size) + " bytes), the lock has " + locked);
    }
  }
}

// build.context: the list of paths, then each file's sha256.
void context_drift(const lock::Lock& lock, const std::optional<std::vector<lock::ContextFile>>& now,
                   std::vector<std::string>& out) {
  const std::vector<lock::ContextFile> none;
  const auto& locked = lock.context ? *lock.context : none;
  const auto& current = now ? *now : none;
  const auto paths = [](const std::vector<lock::ContextFile>& files) {
    json list = json::array();
    for (const auto& file : files) {
      list.push_back(file.path);
    }
    return list;
  };
  if (paths(locked) != paths(current)) {
    out.push_back("drift: build.context: lock has " + paths(locked).dump() + ", manifest has " +
                  paths(current).dump());
    return;
  }
  for (std::size_t i = 0; i < current.size(); ++i) {
    compare_file("build.context[" + current[i].path + "].sha256", locked[i].sha256,
                 current[i].sha256, current[i].path, out);
  }
}

// The refs of git sources, resolved again: local repositories always (offline), remote ones
// only with --refresh.
Status source_drift(const manifest::Manifest& manifest, const lock::Lock& lock, Refresh refresh,
                    std::vector<std::string>& out) {
  for (const auto& [name, source] : lock.sources) {
    const auto it = manifest.sources.find(name);
    if (it == manifest.sources.end() || it->second.git != source.git ||
        it->second.ref != source.ref) {
      continue; // already reported as a manifest drift
    }
    if (refresh != Refresh::remote_refs &&
        git::classify_location(source.git) == git::LocationKind::remote_url) {
      continue;
    }
    auto commit = git::resolve_commit(source.git, source.ref, manifest.dir);
    if (!commit) {
      return with_prefix(std::move(commit).error(), "sources." + name + ": ");
    }
    if (*commit != source.commit) {
      out.push_back("drift: sources." + name + ".commit: " + source.ref + " moved from " +
                    source.commit + " to " + *commit);
    }
  }
  return {};
}

// The base image's tag, resolved again (--refresh).
Status image_drift(const manifest::Manifest& manifest, const lock::Lock& lock,
                   const ImageResolver& resolve, std::vector<std::string>& out) {
  const lock::ImagePin& pin = lock.base_image;
  if (!pin.tag.empty() && pin.reference == manifest.base.image) {
    ENVLOCK_TRY_ASSIGN(auto ref, oci::parse_image_ref(pin.reference));
    ref.digest.clear();
    auto now = resolve(ref, pin.platform);
    if (!now) {
      return with_prefix(std::move(now).error(), "base.image: ");
    }
    if (now->digest != pin.digest) {
      out.push_back("drift: base_image.digest: " + ref.to_string() + " moved from " + pin.digest +
                    " to " + now->digest);
    }
  }
  return {};
}

} // namespace

Result<std::vector<std::string>>
find_drift(const manifest::Manifest& manifest, const lock::Lock& lock,
           const std::filesystem::path& lock_path, Refresh refresh, const ImageResolver& resolve,
           const std::optional<std::filesystem::path>& megatron_repo,
           const FileProgress& progress) {
  ENVLOCK_TRY_ASSIGN(DriftReport report, find_drift_report(manifest, lock, lock_path, refresh,
                                                           resolve, megatron_repo, progress));
  return std::move(report.lines);
}

Result<DriftReport> find_drift_report(const manifest::Manifest& manifest, const lock::Lock& lock,
                                      const std::filesystem::path& lock_path, Refresh refresh,
                                      const ImageResolver& resolve,
                                      const std::optional<std::filesystem::path>& megatron_repo,
                                      const FileProgress& progress) {
  lock::Lock expected = manifest_fields(manifest, lock_path);
  ENVLOCK_TRY(hash_python_files(manifest, expected.python));
  DriftReport report;
  std::vector<std::string>& out = report.lines;
  const json a = manifest_view(lock);
  const json b = manifest_view(expected);
  for (const auto& [key, value] : a.items()) {
    // An optional section (training, launch) is null on the side that lacks it.
    const json* in_lock = value.is_null() ? nullptr : &value;
    const json* in_manifest = b.at(key).is_null() ? nullptr : &b.at(key);
    if (in_lock != nullptr || in_manifest != nullptr) {
      compare(key, in_lock, in_manifest, out);
    }
    if (key == "manifest") {
      compare_file("manifest.sha256", lock.manifest_sha256, expected.manifest_sha256,
                   manifest.path.filename().string(), out);
    }
    if (key == "python") {
      compare_file("python.pyproject_sha256", lock.python.pyproject_sha256,
                   expected.python.pyproject_sha256, project_file(manifest, "pyproject.toml"), out);
      compare_file("python.uv_lock.sha256", lock.python.uv_lock.sha256,
                   expected.python.uv_lock.sha256, expected.python.uv_lock.path, out);
      ENVLOCK_TRY(uv_table_drift(manifest, lock, out, report.packages));
    }
  }
  ENVLOCK_TRY_ASSIGN(const auto context_now, hash_context_files(manifest));
  context_drift(lock, context_now, out);
  training_drift(manifest, lock, expected, progress, out);
  ENVLOCK_TRY(recipe_drift(manifest, lock, refresh, resolve, megatron_repo, out));
  if (refresh == Refresh::remote_refs) {
    ENVLOCK_TRY(image_drift(manifest, lock, resolve, out));
  }
  ENVLOCK_TRY(source_drift(manifest, lock, refresh, out));
  return report;
}

} // namespace envlock::resolve
