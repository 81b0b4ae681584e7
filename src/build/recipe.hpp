// The upstream recipe (build.recipe: {upstream: megatron, path, target}): the Dockerfile at
// `path` in Megatron-LM's locked commit gives the image's dependency stages, and the project's
// final stage adds the training code of the same commit on top of its `target` stage. The lock
// records the recipe's sha256 and every image its FROM lines name, by digest, under "recipe"
// (docs/formats/lock.md); `envlock render` rewrites those FROM lines to NAME@sha256:DIGEST.
#pragma once

#include "build/dockerfile_images.hpp"
#include "lock/lock.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::build {

// The one upstream a recipe may come from: sources.megatron.
inline constexpr std::string_view k_recipe_upstream = "megatron";

using RecipeImage = lock::RecipeImage;
using Recipe = lock::Recipe;

// The images the recipe `text` names (every FROM that is not an earlier stage or scratch), its
// global ARGs overridden by `args` (the manifest's build.args, as --build-arg does), without
// digests. Fails (exit 2) with "build.recipe: PATH:LINE: FROM X: build argument A has no value;
// give it a default in the recipe or set build.args.A", or "build.recipe.target: 'T' is not a
// stage of PATH (its stages: a, b)".
Result<std::vector<RecipeImage>> recipe_images(std::string_view text, const Recipe& recipe,
                                               const BuildArgs& args);

// `text` with the FROM line of each of `recipe.images` rewritten to
// "FROM [--platform=P ]NAME@DIGEST[ AS STAGE]" (continuation lines of that FROM left blank, so
// every other line keeps its number). Fails (exit 2) with "ORIGIN: recipe: line L of PATH is not
// a FROM of IMAGE" when the text is not the recipe that was locked.
Result<std::string> pin_recipe(std::string_view text, const Recipe& recipe,
                               std::string_view origin);

// The local repository holding sources.megatron: `override` (--megatron-repo), else its git
// location relative to `manifest_dir`. Fails (exit 2) for a remote location without override:
// "sources.megatron: URL is a remote repository; pass --megatron-repo DIR, a local clone that
// holds commit C".
Result<std::filesystem::path>
megatron_repository(const lock::GitPin& pin, const std::filesystem::path& manifest_dir,
                    const std::optional<std::filesystem::path>& override_repo);

// The recipe's bytes at `commit`, checked against the sha256 the lock recorded. Fails like
// git::read_blob, or (exit 1) with "build.recipe: PATH at commit C has sha256 X, the lock has Y".
Result<std::string> read_locked_recipe(const std::filesystem::path& repo, std::string_view commit,
                                       const Recipe& recipe);

} // namespace envlock::build
