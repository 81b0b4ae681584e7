#include "resolve/drift_recipe.hpp"

#include "git/location.hpp"

namespace envlock::resolve {

namespace {

std::string describe(const std::optional<lock::Recipe>& recipe) {
  if (!recipe) {
    return "template";
  }
  return "upstream " + recipe->upstream + " " + recipe->path + " (target " + recipe->target + ")";
}

bool same_spec(const lock::Recipe& a, const lock::Recipe& b) {
  return a.upstream == b.upstream && a.path == b.path && a.target == b.target;
}

std::string where(const lock::Recipe& recipe, const lock::RecipeImage& image) {
  return recipe.path + ":" + std::to_string(image.line);
}

// Whether the recipe of `lock` can be read without a fetch: the manifest still names the locked
// source, and it is a local repository or a clone is given.
bool readable(const manifest::Manifest& manifest, const lock::Lock& lock,
              const lock::Recipe& recipe,
              const std::optional<std::filesystem::path>& megatron_repo) {
  const auto pin = lock.sources.find(recipe.upstream);
  const auto now = manifest.sources.find(recipe.upstream);
  if (pin == lock.sources.end() || now == manifest.sources.end() ||
      now->second.git != pin->second.git || now->second.ref != pin->second.ref) {
    return false; // reported as a sources drift
  }
  return megatron_repo || git::classify_location(pin->second.git) == git::LocationKind::local_path;
}

void images_drift(const lock::Recipe& locked, const lock::Recipe& now,
                  std::vector<std::string>& out) {
  const std::size_t n = std::max(locked.images.size(), now.images.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto* a = i < locked.images.size() ? &locked.images[i] : nullptr;
    const auto* b = i < now.images.size() ? &now.images[i] : nullptr;
    if (a != nullptr && b != nullptr && a->line == b->line && a->image == b->image) {
      continue;
    }
    const std::string key = where(now, a != nullptr ? *a : *b);
    out.push_back("drift: recipe.images[" + key + "].image: lock has " +
                  (a != nullptr ? a->image : "nothing") + ", manifest gives " +
                  (b != nullptr ? b->image : "nothing"));
  }
}

Status refresh_images(const manifest::Manifest& manifest, const lock::Recipe& recipe,
                      const ImageResolver& resolve, std::vector<std::string>& out) {
  for (const auto& image : recipe.images) {
    auto ref = oci::parse_image_ref(image.image);
    if (!ref || ref->tag.empty() || !ref->digest.empty()) {
      continue;
    }
    auto now = resolve(*ref, manifest.base.platform);
    if (!now) {
      return with_prefix(std::move(now).error(), "build.recipe: " + where(recipe, image) + ": ");
    }
    if (now->digest != image.digest) {
      out.push_back("drift: recipe.images[" + where(recipe, image) + "].digest: " +
                    ref->to_string() + " moved from " + image.digest + " to " + now->digest);
    }
  }
  return {};
}

} // namespace

Status recipe_drift(const manifest::Manifest& manifest, const lock::Lock& lock, Refresh refresh,
                    const ImageResolver& resolve,
                    const std::optional<std::filesystem::path>& megatron_repo,
                    std::vector<std::string>& out) {
  const auto& locked = lock.recipe;
  const auto wanted = manifest_recipe(manifest);
  if (!locked && !wanted) {
    return {};
  }
  if (!locked || !wanted || !same_spec(*locked, *wanted)) {
    out.push_back("drift: recipe: lock has " + describe(locked) + ", manifest has " +
                  describe(wanted));
    return {};
  }
  if (readable(manifest, lock, *locked, megatron_repo)) {
    ENVLOCK_TRY_ASSIGN(const UpstreamRecipe now,
                       read_manifest_recipe(manifest, *wanted, lock, megatron_repo));
    images_drift(*locked, now.recipe, out);
  }
  if (refresh == Refresh::remote_refs) {
    ENVLOCK_TRY(refresh_images(manifest, *locked, resolve, out));
  }
  return {};
}

} // namespace envlock::resolve
