#include "manifest/formats.hpp"
#include "manifest/sections.hpp"
#include "util/fs.hpp"

namespace envlock::manifest {

namespace {

constexpr std::string_view k_recipe_forms =
    "'template' or a mapping with keys upstream, path and target";

Result<std::map<std::string, std::string>> read_args(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  std::map<std::string, std::string> args;
  for (const auto& entry : reader.entries(field)) {
    const std::string& name = entry.key.Scalar();
    if (!is_build_arg_name(name)) {
      return reader.error(Field{entry.path, YAML::Node(), entry.key},
                          "'" + name + "' is not a build argument name ([A-Za-z_][A-Za-z0-9_]*)");
    }
    ENVLOCK_TRY_ASSIGN(args[name], reader.string(entry));
  }
  return args;
}

// build.recipe: "template" (recipe stays empty, recipe_template set) or {upstream, path, target}.
Status read_recipe(const Reader& reader, const Field& field, Build& build) {
  if (field.value.IsScalar()) {
    ENVLOCK_TRY_ASSIGN(const std::string form, reader.string(field));
    if (form != "template") {
      return reader.format_error(field, k_recipe_forms);
    }
    build.recipe_template = true;
    return {};
  }
  if (!field.value.IsMap()) {
    return reader.type_error(field, k_recipe_forms);
  }
  ENVLOCK_TRY(reader.only_keys(field, {"upstream", "path", "target"}));
  RecipeSpec recipe;
  for (const char* key : {"upstream", "path", "target"}) {
    ENVLOCK_TRY_ASSIGN(const Field entry, reader.require(field, key));
    ENVLOCK_TRY_ASSIGN(const std::string value, reader.non_empty_string(entry));
    if (std::string_view(key) == "upstream" && value != "megatron") {
      return reader.error(
          entry, "build.recipe.upstream: the only upstream is 'megatron' (sources.megatron)");
    }
    if (std::string_view(key) == "path" && !util::is_relative_inside(value)) {
      return reader.error(entry, "build.recipe.path: '" + value +
                                     "' must be a relative path inside the repository");
    }
    (std::string_view(key) == "upstream" ? recipe.upstream
     : std::string_view(key) == "path"   ? recipe.path
                                         : recipe.target) = value;
  }
  build.recipe = std::move(recipe);
  return {};
}

} // namespace

Result<Build> read_build(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(field, {"args", "recipe", "context"}));
  Build build;
  if (const auto args = reader.find(field, "args")) {
    ENVLOCK_TRY_ASSIGN(build.args, read_args(reader, *args));
  }
  if (const auto recipe = reader.find(field, "recipe")) {
    ENVLOCK_TRY(read_recipe(reader, *recipe, build));
  }
  if (const auto context = reader.find(field, "context")) {
    ENVLOCK_TRY_ASSIGN(build.context, reader.string_list(*context));
  }
  return build;
}

} // namespace envlock::manifest
