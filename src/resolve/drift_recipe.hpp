// Drift of the upstream recipe (build.recipe): the manifest's recipe against the lock's, the
// images its FROM lines name under the manifest's build arguments, and with refresh each image's
// tag resolved again. Part of lock/check.
#pragma once

#include "resolve/drift.hpp"

namespace envlock::resolve {

// Appends "drift: recipe...." lines to `out`:
//   drift: recipe: lock has upstream megatron P (target T), manifest has template
//   drift: recipe.images[P:L].image: lock has A, manifest gives B
//   drift: recipe.images[P:L].digest: NAME:TAG moved from A to B           (refresh only)
// The FROM lines are compared only when the recipe can be read: the source is a local
// repository, or `megatron_repo` holds it. Fails like read_manifest_recipe, or (refresh) with the
// resolver's error prefixed "build.recipe: P:L: ".
Status recipe_drift(const manifest::Manifest& manifest, const lock::Lock& lock, Refresh refresh,
                    const ImageResolver& resolve,
                    const std::optional<std::filesystem::path>& megatron_repo,
                    std::vector<std::string>& out);

} // namespace envlock::resolve
