#include "manifest/formats.hpp"
#include "manifest/manifest.hpp"

namespace envlock::manifest {

nlohmann::json to_json(const Manifest& manifest) {
  nlohmann::json out = nlohmann::json::object();
  out["envlock"] = manifest.schema;
  out["image"] = {{"name", manifest.image.name},
                  {"tag", manifest.image.tag},
                  {"repository", manifest.image.repository}};
  out["base"] = {{"image", manifest.base.image}, {"platform", manifest.base.platform}};
  out["sources"] = nlohmann::json::object();
  for (const auto& [name, source] : manifest.sources) {
    out["sources"][name] = {{"git", source.git}, {"ref", source.ref}};
  }
  const Python& python = manifest.python;
  out["python"] = {{"project", python.project},
                   {"uv", {{"version", python.uv.version}, {"sha256", python.uv.sha256}}},
                   {"sync_args", python.sync_args}};
  out["build"] = {{"args", manifest.build.args}};
  if (manifest.build.recipe) {
    out["build"]["recipe"] = {{"upstream", manifest.build.recipe->upstream},
                              {"path", manifest.build.recipe->path},
                              {"target", manifest.build.recipe->target}};
  } else if (manifest.build.recipe_template) {
    out["build"]["recipe"] = "template";
  }
  if (manifest.build.context) {
    out["build"]["context"] = *manifest.build.context;
  }
  const Expect& expect = manifest.expect;
  out["expect"] = {{"cuda", expect.cuda},
                   {"nccl", expect.nccl},
                   {"pytorch", expect.pytorch},
                   {"python", expect.python},
                   {"gpus", {{"count", expect.gpus.count}, {"model", expect.gpus.model}}},
                   {"nccl_busbw_gbps", expect.nccl_busbw_gbps},
                   {"host", lock::host_expect_to_json(expect.host)},
                   {"resume", lock::resume_expect_to_json(expect.resume)}};
  if (expect.health) {
    out["expect"]["host"]["health"] = lock::health_expect_to_json(*expect.health);
  }
  if (!expect.links.empty()) {
    out["expect"]["links"] = lock::links_expect_to_json(expect.links); // as the lock writes it
  }
  out["enroot"] = {{"squash_options", manifest.enroot.squash_options},
                   {"source_date_epoch", manifest.enroot.source_date_epoch}};
  if (manifest.enroot.locale != "C.UTF-8") {
    out["enroot"]["locale"] = manifest.enroot.locale; // the default is left out, as in the lock
  }
  if (manifest.training) {
    const Training& training = *manifest.training;
    out["training"] = nlohmann::json::object();
    if (training.config) {
      out["training"]["config"] = *training.config;
    }
    if (training.tokenizer) {
      out["training"]["tokenizer"] = *training.tokenizer;
    }
    if (training.data) {
      out["training"]["data"] = *training.data;
    }
    if (!training.checkpoint_dir.empty()) {
      out["training"]["checkpoint_dir"] = training.checkpoint_dir;
    }
  }
  if (manifest.launch) {
    out["launch"] = nlohmann::json::object();
    if (!manifest.launch->command.empty()) {
      out["launch"]["command"] = manifest.launch->command;
    }
    if (!manifest.launch->directories.empty()) {
      out["launch"]["directories"] = manifest.launch->directories;
    }
  }
  return out;
}

std::filesystem::path resolve_path(const Manifest& manifest, const std::string& path) {
  std::filesystem::path resolved = (manifest.dir / path).lexically_normal();
  // "dir/." normalises to "dir/"; drop the trailing separator.
  if (resolved.has_relative_path() && !resolved.has_filename()) {
    resolved = resolved.parent_path();
  }
  if (resolved.empty()) {
    return ".";
  }
  return resolved;
}

std::optional<std::filesystem::path> local_git_path(const Manifest& manifest,
                                                    const GitSource& source) {
  if (is_git_url(source.git)) {
    return std::nullopt;
  }
  return resolve_path(manifest, source.git);
}

} // namespace envlock::manifest
