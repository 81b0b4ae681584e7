#include "build/recipe.hpp"
#include "git/tree.hpp"
#include "resolve/resolve.hpp"
#include "util/sha256.hpp"

namespace envlock::resolve {

std::optional<lock::Recipe> manifest_recipe(const manifest::Manifest& manifest) {
  if (!manifest.build.recipe) {
    return std::nullopt;
  }
  const auto& spec = *manifest.build.recipe;
  return lock::Recipe{spec.upstream, spec.path, spec.target, "", {}};
}

Result<UpstreamRecipe> read_manifest_recipe(const manifest::Manifest& manifest, lock::Recipe recipe,
                                            const lock::Lock& lock,
                                            const std::optional<std::filesystem::path>& repo) {
  const auto pin = lock.sources.find(recipe.upstream);
  if (pin == lock.sources.end()) {
    return input_error("build.recipe: upstream '" + recipe.upstream + "' needs sources." +
                       recipe.upstream);
  }
  ENVLOCK_TRY_ASSIGN(const auto path, build::megatron_repository(pin->second, manifest.dir, repo));
  auto text = git::read_blob(path, pin->second.commit, recipe.path);
  if (!text) {
    return with_prefix(std::move(text).error(), "build.recipe: ");
  }
  recipe.sha256 = util::sha256_hex(*text);
  ENVLOCK_TRY_ASSIGN(recipe.images, build::recipe_images(*text, recipe, manifest.build.args));
  return UpstreamRecipe{std::move(recipe), std::move(*text)};
}

Result<std::optional<lock::Recipe>>
resolve_recipe(const manifest::Manifest& manifest, const lock::Lock& lock,
               const ImageResolver& resolve, const std::optional<std::filesystem::path>& repo) {
  auto wanted = manifest_recipe(manifest);
  if (!wanted) {
    return std::optional<lock::Recipe>();
  }
  ENVLOCK_TRY_ASSIGN(UpstreamRecipe upstream,
                     read_manifest_recipe(manifest, std::move(*wanted), lock, repo));
  lock::Recipe& recipe = upstream.recipe;
  for (auto& image : recipe.images) {
    const std::string where =
        "build.recipe: " + recipe.path + ":" + std::to_string(image.line) + ": ";
    auto ref = oci::parse_image_ref(image.image);
    if (!ref) {
      return with_prefix(std::move(ref).error(), where);
    }
    auto resolved = resolve(*ref, manifest.base.platform);
    if (!resolved) {
      return with_prefix(std::move(resolved).error(), where);
    }
    image.digest = resolved->digest;
    image.platform_digest = resolved->platform_digest;
  }
  return std::optional<lock::Recipe>(std::move(recipe));
}

} // namespace envlock::resolve
