// Locking: a Manifest becomes a Lock in which every floating name is resolved once (the base
// image's tag to a digest, each git ref to a commit, uv.lock and pyproject.toml to their sha256).
// Every field is deterministic: no times, no absolute paths (paths are relative to the manifest's
// folder, the manifest's own path relative to the lock's folder).
#pragma once

#include "build/recipe.hpp"
#include "lock/lock.hpp"
#include "manifest/manifest.hpp"
#include "oci/image_ref.hpp"
#include "oci/registry.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace envlock::resolve {

// Told which file is being hashed (relative to the manifest's folder), the bytes hashed so far
// and its size, after each chunk: `envlock lock` shows it on a terminal.
using FileProgress =
    std::function<void(const std::string& path, std::uint64_t hashed, std::uint64_t size)>;

// Resolves an image reference for a platform: the registry client in the tool.
using ImageResolver =
    std::function<Result<oci::Resolved>(const oci::ImageRef& image, std::string_view platform)>;

// The fields that come from the manifest alone, with no file read and no network: everything but
// the base image's digests, the source commits, uv.lock's parsed table and hashes, and the
// training files' hashes (their paths are filled in, normalised).
lock::Lock manifest_fields(const manifest::Manifest& manifest,
                           const std::filesystem::path& lock_path);

// The sha256 of uv.lock and pyproject.toml of the python project, into `python`.
// Fails with an input error naming the file (relative to the manifest's folder) when unreadable.
Status hash_python_files(const manifest::Manifest& manifest, lock::Python& python);

// Resolves the base image: its digest, media type and platform manifest. When the manifest gives
// tag@digest the tag is resolved too, and a disagreement fails (exit 1) with "base.image: the
// registry says NAME:TAG is sha256:A, the manifest pins sha256:B".
Result<lock::ImagePin> resolve_base_image(const manifest::Manifest& manifest,
                                          const ImageResolver& resolve);

// The whole lock: manifest_fields, hash_python_files, uv.lock parsed, the base image, every
// source and the upstream recipe (resolve_recipe) resolved. Errors name the manifest key:
// "sources.megatron: ref 'x' not found in URL". `megatron_repo` is a local clone for reading an
// upstream recipe of a remote source.
Result<lock::Lock> resolve_lock(const manifest::Manifest& manifest,
                                const std::filesystem::path& lock_path,
                                const ImageResolver& resolve,
                                const std::optional<std::filesystem::path>& megatron_repo = {},
                                const FileProgress& progress = {});

// Fills in the sha256 and size of every file of `training` (as manifest_fields gives it: paths
// relative to the manifest's folder; the data prefix's .bin and .idx). Fails (exit 2) naming the
// field and the file: "training.data: cannot read data/x.bin: No such file or directory".
Status hash_training_files(const manifest::Manifest& manifest, lock::Training& training,
                           const FileProgress& progress = {});

// The manifest's upstream recipe (upstream, path and target; no sha256 or images), or
// std::nullopt when it builds from the template.
std::optional<lock::Recipe> manifest_recipe(const manifest::Manifest& manifest);

// The upstream recipe read at the source's locked commit, and what it names.
struct UpstreamRecipe {
  lock::Recipe recipe; // with its sha256 and images (without digests)
  std::string text;
};

// Reads `recipe` (the manifest's, see manifest_recipe) from `lock`'s commit of its source (from
// `repo` when given, else the source's local repository), with the manifest's build arguments.
// Fails (exit 2) with "build.recipe: upstream 'X' needs sources.X", like
// build::megatron_repository, git::read_blob (prefixed "build.recipe: ") and build::recipe_images.
Result<UpstreamRecipe> read_manifest_recipe(const manifest::Manifest& manifest, lock::Recipe recipe,
                                            const lock::Lock& lock,
                                            const std::optional<std::filesystem::path>& repo);

// The lock's "recipe": the upstream recipe with every image its FROM lines name resolved for
// base.platform, or nothing for the template recipe. `lock` must have its
// sources resolved. Fails like read_manifest_recipe, or with the resolver's error prefixed
// "build.recipe: PATH:LINE: ".
Result<std::optional<lock::Recipe>>
resolve_recipe(const manifest::Manifest& manifest, const lock::Lock& lock,
               const ImageResolver& resolve, const std::optional<std::filesystem::path>& repo);

// The files of the manifest's build.context as the lock records them under "context":
// each path and sha256, in the manifest's order (paths normalised); nothing when the manifest
// lists none. Fails (exit 2) with "build.context: 'P' must be a relative path inside the
// manifest's folder" or "build.context: cannot read P".
Result<std::optional<std::vector<lock::ContextFile>>>
hash_context_files(const manifest::Manifest& manifest);

// Refuses python inputs that contradict each other, as `envlock lock` and `lock --check` do: a
// uv.lock (`uv_lock`, parsed from `uv_text`) that no longer satisfies pyproject.toml
// (uv::check_satisfies, what `uv lock --check` compares), or whose packages contradict the
// manifest's expect (uv::expect_contradictions). Fails (exit 2) with one indented line per
// requirement that moved and per contradiction, each naming both sides.
Status check_python_inputs(const manifest::Manifest& manifest, const lock::UvLockPin& uv_lock,
                           std::string_view uv_text);

// Marks the packages of `uv_lock` (parsed from `uv_text`) that `uv sync --locked` does not
// install with the manifest's python.sync_args on base.platform and expect.python
// (uv::sync_selection): `not_selected`. Fails (exit 2) on sync arguments uv.lock cannot meet
// (--package of no member, --extra of no extra) and on a marker that is not PEP 508.
Status mark_not_selected(const manifest::Manifest& manifest, lock::UvLockPin& uv_lock,
                         std::string_view uv_text);

// The path of the python project's file `name` relative to the manifest's folder ("uv.lock").
std::string project_file(const manifest::Manifest& manifest, std::string_view name);

} // namespace envlock::resolve
