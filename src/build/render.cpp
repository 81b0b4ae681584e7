#include "build/render.hpp"

#include "build/recipe.hpp"
#include "template/store.hpp"
#include "template/strict_mustache.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <cctype>

#include <system_error>

namespace envlock::build {

namespace fs = std::filesystem;

namespace {

// "# NAME=VALUE" (spaces allowed around the name and the '='): a Dockerfile parser directive.
bool is_directive(std::string_view line) {
  if (!line.starts_with('#')) {
    return false;
  }
  line = util::trim(line.substr(1));
  std::size_t i = 0;
  while (i < line.size() && std::isalpha(static_cast<unsigned char>(line[i])) != 0) {
    ++i;
  }
  const std::string_view rest = util::trim(line.substr(i));
  return i > 0 && rest.size() > 1 && rest.front() == '=';
}

// A recipe's leading parser directives ("# syntax=...", "# escape=..."), which must stay the
// first lines of the rendered Dockerfile, and the rest of it.
std::pair<std::string, std::string> split_directives(const std::string& text) {
  std::size_t at = 0;
  for (auto end = text.find('\n'); end != std::string::npos; end = text.find('\n', at)) {
    if (!is_directive(std::string_view(text).substr(at, end - at))) {
      break;
    }
    at = end + 1;
  }
  return {text.substr(0, at), text.substr(at)};
}

} // namespace

Result<Template> default_template(RecipeKind kind) {
  return templates::find_template(kind == RecipeKind::upstream ? k_upstream_template
                                                               : k_dockerfile_template);
}

Result<Template> read_template(const fs::path& path) {
  ENVLOCK_TRY_ASSIGN(std::string text, util::read_file_limited(path, std::uintmax_t{1} << 20));
  return Template{path.string(), std::move(text)};
}

Result<std::string> render_dockerfile(const lock::Lock& lock, const std::string& origin,
                                      const Template& tmpl, Verifier verifier,
                                      const std::optional<std::string>& recipe_text) {
  ENVLOCK_TRY_ASSIGN(nlohmann::json context, template_context(lock, origin, verifier));
  const auto& recipe = lock.recipe;
  if (recipe) {
    if (!recipe_text) {
      return input_error(origin + ": the upstream recipe's text is needed to render it");
    }
    ENVLOCK_TRY_ASSIGN(const std::string pinned, pin_recipe(*recipe_text, *recipe, origin));
    const auto [directives, body] = split_directives(pinned);
    context["recipe"]["directives"] = directives;
    context["recipe"]["text"] = body;
  }
  return templates::render_mustache(tmpl.text, tmpl.origin, context);
}

Result<std::string> render_lock(const lock::Lock& lock, const fs::path& lock_path,
                                const RenderRequest& request) {
  const std::string origin = lock_path.string();
  const auto& recipe = lock.recipe;
  std::optional<std::string> recipe_text;
  if (recipe) {
    const auto pin = lock.sources.find(std::string(k_recipe_upstream));
    if (pin == lock.sources.end()) {
      return input_error(origin + ": sources.megatron: missing; the upstream recipe comes from it");
    }
    ENVLOCK_TRY_ASSIGN(
        const fs::path repo,
        megatron_repository(pin->second, manifest_dir(lock, lock_path), request.megatron_repo));
    ENVLOCK_TRY_ASSIGN(recipe_text, read_locked_recipe(repo, pin->second.commit, *recipe));
  }
  ENVLOCK_TRY_ASSIGN(const Template tmpl,
                     request.template_path ? read_template(*request.template_path)
                                           : default_template(recipe ? RecipeKind::upstream
                                                                     : RecipeKind::template_file));
  return render_dockerfile(lock, origin, tmpl, request.verifier, recipe_text);
}

Result<std::string> render_file(const RenderRequest& request) {
  const std::string origin = request.lock_path.string();
  std::error_code ec;
  if (!fs::exists(request.lock_path, ec)) {
    return input_error(origin + ": no such file; run 'envlock lock' to create it");
  }
  ENVLOCK_TRY_ASSIGN(const lock::Lock lock, lock::read_lock(request.lock_path));
  return render_lock(lock, request.lock_path, request);
}

} // namespace envlock::build
