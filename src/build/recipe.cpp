#include "build/recipe.hpp"

#include "git/location.hpp"
#include "git/tree.hpp"
#include "oci/image_ref.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <algorithm>

namespace envlock::build {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The image reference a FROM line is pinned to: NAME@DIGEST (a tag is dropped; the digest wins).
std::string pinned_name(const RecipeImage& image) {
  const auto ref = oci::parse_image_ref(image.image);
  return (ref ? ref->name() : image.image) + "@" + image.digest;
}

} // namespace

Result<std::vector<RecipeImage>> recipe_images(std::string_view text, const Recipe& recipe,
                                               const BuildArgs& args) {
  const auto froms = from_images(parse_dockerfile(text), args);
  std::vector<std::string> stages;
  std::vector<RecipeImage> out;
  for (const auto& from : froms) {
    if (!from.stage.empty()) {
      stages.push_back(from.stage);
    }
    if (from.kind != FromKind::image) {
      continue;
    }
    if (!from.missing.empty()) {
      return input_error("build.recipe: " + recipe.path + ":" + std::to_string(from.line) +
                         ": FROM " + from.written + ": build argument " + from.missing +
                         " has no value; give it a default in the recipe or set build.args." +
                         from.missing);
    }
    out.push_back(RecipeImage{from.line, from.written, from.image, "", ""});
  }
  const bool found = std::any_of(stages.begin(), stages.end(), [&](const std::string& stage) {
    return util::to_lower(stage) == util::to_lower(recipe.target);
  });
  if (!found) {
    return input_error(
        "build.recipe.target: '" + recipe.target + "' is not a stage of " + recipe.path +
        " (its stages: " + (stages.empty() ? std::string("none named") : util::join(stages, ", ")) +
        ")");
  }
  return out;
}

Result<std::string> pin_recipe(std::string_view text, const Recipe& recipe,
                               std::string_view origin) {
  std::vector<std::string> lines = util::split(text, '\n');
  const auto froms = from_images(parse_dockerfile(text), {});
  for (const auto& image : recipe.images) {
    const auto from = std::find_if(froms.begin(), froms.end(), [&](const FromImage& f) {
      return f.line == image.line && f.written == image.written;
    });
    if (from == froms.end() || from->end_line > static_cast<int>(lines.size())) {
      return input_error(std::string(origin) + ": recipe: line " + std::to_string(image.line) +
                         " of " + recipe.path + " is not a FROM of " + image.written);
    }
    std::string pinned = "FROM ";
    if (!from->platform_flag.empty()) {
      pinned += from->platform_flag + " ";
    }
    pinned += pinned_name(image);
    if (!from->stage.empty()) {
      pinned += " AS " + from->stage;
    }
    const auto first = static_cast<std::size_t>(from->line - 1);
    const bool crlf = lines[first].ends_with('\r');
    lines[first] = pinned + (crlf ? "\r" : "");
    for (auto i = first + 1; i < static_cast<std::size_t>(from->end_line); ++i) {
      lines[i].clear();
    }
  }
  return util::join(lines, "\n");
}

Result<fs::path> megatron_repository(const lock::GitPin& pin, const fs::path& manifest_dir,
                                     const std::optional<fs::path>& override_repo) {
  if (override_repo) {
    return *override_repo;
  }
  if (git::classify_location(pin.git) == git::LocationKind::remote_url) {
    return input_error("sources.megatron: " + git::redact_location(pin.git) +
                       " is a remote repository; pass --megatron-repo DIR, a local clone that "
                       "holds commit " +
                       pin.commit);
  }
  return (manifest_dir / git::local_path_of(pin.git)).lexically_normal();
}

Result<std::string> read_locked_recipe(const fs::path& repo, std::string_view commit,
                                       const Recipe& recipe) {
  auto text = git::read_blob(repo, commit, recipe.path);
  if (!text) {
    return with_prefix(std::move(text).error(), "build.recipe: ");
  }
  const std::string now = util::sha256_hex(*text);
  if (now != recipe.sha256) {
    return check_failed("build.recipe: " + recipe.path + " at commit " + std::string(commit) +
                        " has sha256 " + now + ", the lock has " + recipe.sha256);
  }
  return text;
}

} // namespace envlock::build
