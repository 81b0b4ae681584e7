// The lock's "recipe" and "context" sections, each read with one FieldReader like every other
// section: every key typed, unknown keys refused with the JSON path.
#include "lock/lock.hpp"
#include "util/field_reader.hpp"

#include <limits>

namespace envlock::lock {

using nlohmann::json;
using util::FieldReader;

json recipe_to_json(const Recipe& recipe) {
  json images = json::array();
  for (const auto& image : recipe.images) {
    images.push_back({{"line", image.line},
                      {"from", image.written},
                      {"image", image.image},
                      {"digest", image.digest},
                      {"platform_digest", image.platform_digest}});
  }
  return {{"upstream", recipe.upstream},
          {"path", recipe.path},
          {"target", recipe.target},
          {"sha256", recipe.sha256},
          {"images", std::move(images)}};
}

Recipe read_recipe(FieldReader& top) {
  Recipe recipe;
  FieldReader r = top.sub("recipe");
  recipe.upstream = r.str("upstream");
  recipe.path = r.str("path");
  recipe.target = r.str("target");
  recipe.sha256 = r.str("sha256");
  if (const json* images = r.array("images"); images != nullptr) {
    for (std::size_t i = 0; i < images->size(); ++i) {
      FieldReader item = r.element("images", i, (*images)[i]);
      RecipeImage image;
      const std::int64_t line = item.integer("line");
      if (!item.error() && (line < 1 || line > std::numeric_limits<int>::max())) {
        item.fail(item.join("line"), "must be a line number (1 or more)");
      }
      image.line = static_cast<int>(line);
      image.written = item.str("from");
      image.image = item.str("image");
      image.digest = item.str("digest");
      image.platform_digest = item.str("platform_digest");
      r.merge(item);
      recipe.images.push_back(std::move(image));
    }
  }
  top.merge(r);
  return recipe;
}

json context_to_json(const std::vector<ContextFile>& files) {
  json out = json::array();
  for (const auto& file : files) {
    out.push_back({{"path", file.path}, {"sha256", file.sha256}});
  }
  return out;
}

std::vector<ContextFile> read_context(FieldReader& top) {
  std::vector<ContextFile> files;
  if (const json* list = top.array("context"); list != nullptr) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      FieldReader item = top.element("context", i, (*list)[i]);
      ContextFile file;
      file.path = item.str("path");
      file.sha256 = item.str("sha256");
      top.merge(item);
      files.push_back(std::move(file));
    }
  }
  return files;
}

} // namespace envlock::lock
