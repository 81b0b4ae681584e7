// `envlock render`: the Dockerfile of a lock. The lock and a Mustache template (by default
// templates/Dockerfile.mustache) go in; the Dockerfile text comes out, the same bytes every time
// for the same lock and template. docs/manual/render.md describes the options, the template
// search order, every template name and the build-context layout the Dockerfile expects.
#pragma once

#include "build/context_plan.hpp"
#include "build/template_context.hpp"
#include "template/store.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace envlock::build {

// The names of the default templates, in templates/ and built into the executable: the whole
// Dockerfile, and for an upstream recipe the recipe followed by the project's final stage.
inline constexpr const char* k_dockerfile_template = "Dockerfile.mustache";
inline constexpr const char* k_upstream_template = "Dockerfile.upstream.mustache";

struct RenderRequest {
  std::filesystem::path lock_path = "envlock.lock.json";
  std::optional<std::filesystem::path> template_path; // empty: the default template
  Verifier verifier = Verifier::omit;
  // A local clone holding sources.megatron.commit, for an upstream recipe whose source is remote.
  std::optional<std::filesystem::path> megatron_repo;
};

using Template = templates::Template;

// The default template for `kind`, found by the template store (template/store.hpp): the installed
// share folder, the source tree, then the copy built into the executable. Fails (exit 3) only when
// none of them holds it.
Result<Template> default_template(RecipeKind kind = RecipeKind::template_file);

// Reads the template file `path` (exit 2 when it cannot be read).
Result<Template> read_template(const std::filesystem::path& path);

// Renders `tmpl` with the context of `lock` (template_context.hpp). `origin` names the lock in
// errors. With an upstream recipe, `recipe_text` holds its bytes at the locked commit: they are
// pinned (recipe.hpp) and given to the template as {{recipe.text}}, their leading parser
// directives as {{recipe.directives}}. Fails (exit 2) on a lock that pins too little, on a
// recipe that is not the one locked, and on a template that does not parse or uses a name the
// context lacks.
Result<std::string> render_dockerfile(const lock::Lock& lock, const std::string& origin,
                                      const Template& tmpl, Verifier verifier,
                                      const std::optional<std::string>& recipe_text);

// Renders the Dockerfile of `lock` (read from `lock_path`): reads the upstream recipe when the
// lock has one (from `megatron_repo`, else sources.megatron's local repository), takes
// `template_path` or the default template for the recipe's kind, and renders. Fails like
// megatron_repository, read_locked_recipe, read_template and render_dockerfile.
Result<std::string> render_lock(const lock::Lock& lock, const std::filesystem::path& lock_path,
                                const RenderRequest& request);

// Reads the lock and the template named by `request` and renders. Fails (exit 2) with
// "LOCK: no such file; run 'envlock lock' to create it", with the lock's parse or validation
// error, or like read_template and render_dockerfile; (exit 3) like default_template.
Result<std::string> render_file(const RenderRequest& request);

} // namespace envlock::build
