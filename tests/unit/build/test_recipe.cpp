#include "../testutil.hpp"
#include "build/context_plan.hpp"
#include "build/recipe.hpp"
#include "build/render.hpp"
#include "context_fixture.hpp"
#include "lock/lock.hpp"
#include "util/sha256.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <doctest/doctest.h>
#include <string>

using namespace envlock;

namespace {

// An upstream-style recipe: a global ARG naming the base image, a continued FROM with a platform
// flag, a stage built on an earlier one, scratch.
const std::string k_recipe = "# syntax=docker/dockerfile:1\n"
                             "ARG FROM_IMAGE_NAME=registry.invalid/nvidia/pytorch:26.06-py3\n"
                             "ARG TOOLS=registry.invalid/tools:1\n"
                             "FROM ${FROM_IMAGE_NAME} AS main\n"
                             "RUN echo main\n"
                             "FROM --platform=linux/amd64 \\\n"
                             "    $TOOLS AS tools\n"
                             "FROM main AS jet\n"
                             "FROM scratch AS empty\n";

const std::string k_digest_a = "sha256:" + std::string(64, 'a');
const std::string k_digest_b = "sha256:" + std::string(64, 'b');

build::Recipe spec(std::string target = "main") {
  return build::Recipe{"megatron", "docker/Dockerfile.ci.dev", std::move(target), "", {}};
}

build::Recipe pinned_recipe() {
  build::Recipe recipe = spec();
  recipe.sha256 = util::sha256_hex(k_recipe);
  recipe.images = {
      {4, "${FROM_IMAGE_NAME}", "registry.invalid/nvidia/pytorch:26.06-py3", k_digest_a, ""},
      {6, "$TOOLS", "registry.invalid/tools:1", k_digest_b, ""}};
  return recipe;
}

} // namespace

TEST_SUITE_BEGIN("recipe");

TEST_CASE("recipe_images: every FROM naming an image, with ARG defaults and build.args") {
  auto images = build::recipe_images(k_recipe, spec(), {});
  REQUIRE(images.has_value());
  REQUIRE(images->size() == 2);
  CHECK((*images)[0] == build::RecipeImage{4, "${FROM_IMAGE_NAME}",
                                           "registry.invalid/nvidia/pytorch:26.06-py3", "", ""});
  CHECK((*images)[1] == build::RecipeImage{6, "$TOOLS", "registry.invalid/tools:1", "", ""});

  auto overridden = build::recipe_images(
      k_recipe, spec(), {{"FROM_IMAGE_NAME", "registry.invalid/base:2"}, {"UNUSED", "x"}});
  REQUIRE(overridden.has_value());
  CHECK((*overridden)[0].image == "registry.invalid/base:2");
}

TEST_CASE("recipe_images: an argument without a value, a target that is no stage") {
  const std::string no_default = "ARG FROM_IMAGE_NAME\nFROM ${FROM_IMAGE_NAME} AS main\n";
  auto missing = build::recipe_images(no_default, spec(), {});
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().code == ExitCode::usage);
  CHECK(missing.error().message ==
        "build.recipe: docker/Dockerfile.ci.dev:2: FROM ${FROM_IMAGE_NAME}: build argument "
        "FROM_IMAGE_NAME has no value; give it a default in the recipe or set "
        "build.args.FROM_IMAGE_NAME");
  CHECK(build::recipe_images(no_default, spec(), {{"FROM_IMAGE_NAME", "x:1"}}).has_value());

  auto target = build::recipe_images(k_recipe, spec("dev"), {});
  REQUIRE_FALSE(target.has_value());
  CHECK(target.error().message == "build.recipe.target: 'dev' is not a stage of "
                                  "docker/Dockerfile.ci.dev (its stages: main, tools, jet, empty)");
  CHECK(build::recipe_images(k_recipe, spec("JET"), {}).has_value());
}

TEST_CASE("pin_recipe: FROM lines pinned by digest, every other line kept in place") {
  auto pinned = build::pin_recipe(k_recipe, pinned_recipe(), "envlock.lock.json");
  REQUIRE(pinned.has_value());
  CHECK(*pinned == "# syntax=docker/dockerfile:1\n"
                   "ARG FROM_IMAGE_NAME=registry.invalid/nvidia/pytorch:26.06-py3\n"
                   "ARG TOOLS=registry.invalid/tools:1\n"
                   "FROM registry.invalid/nvidia/pytorch@" +
                       k_digest_a +
                       " AS main\n"
                       "RUN echo main\n"
                       "FROM --platform=linux/amd64 registry.invalid/tools@" +
                       k_digest_b +
                       " AS tools\n"
                       "\n"
                       "FROM main AS jet\n"
                       "FROM scratch AS empty\n");

  build::Recipe moved = pinned_recipe();
  moved.images[1].line = 5;
  auto wrong = build::pin_recipe(k_recipe, moved, "envlock.lock.json");
  REQUIRE_FALSE(wrong.has_value());
  CHECK(wrong.error().message ==
        "envlock.lock.json: recipe: line 5 of docker/Dockerfile.ci.dev is not a FROM of $TOOLS");
}

// A lock's JSON with `recipe` set to `value`, read back: the recipe or from_json's error.
Result<lock::Lock> with_recipe(const nlohmann::json& value) {
  auto lock = lock::read_lock(test::data_path("render/good_lock.json"));
  REQUIRE(lock.has_value());
  nlohmann::json json = lock::to_json(*lock);
  json["recipe"] = value;
  return lock::from_json(json, "l.json");
}

TEST_CASE("lock recipe: it round-trips through the lock; the template form has none") {
  auto plain = lock::read_lock(test::data_path("render/good_lock.json"));
  REQUIRE(plain.has_value());
  CHECK_FALSE(plain->recipe.has_value());
  auto back = with_recipe(lock::recipe_to_json(pinned_recipe()));
  REQUIRE(back.has_value());
  REQUIRE(back->recipe.has_value());
  CHECK(*back->recipe == pinned_recipe());
  nlohmann::json bad = lock::recipe_to_json(pinned_recipe());
  bad["images"][0].erase("digest");
  auto refused = with_recipe(bad);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().message == "l.json: recipe.images[0].digest: missing");
  nlohmann::json extra = lock::recipe_to_json(pinned_recipe());
  extra["images"][1]["platform_digets"] = "linux/amd64";
  auto unknown = with_recipe(extra);
  REQUIRE_FALSE(unknown.has_value());
  CHECK(unknown.error().message ==
        "l.json: recipe.images[1]: unknown key 'platform_digets'; did you mean 'platform_digest'?");
}

TEST_CASE("lock recipe: a malformed recipe section is named") {
  const auto message = [&](const nlohmann::json& value) {
    auto result = with_recipe(value);
    REQUIRE_FALSE(result.has_value());
    CHECK(result.error().code == ExitCode::usage);
    return result.error().message;
  };
  CHECK(message(nlohmann::json::array()) == "l.json: recipe: must be an object");
  nlohmann::json recipe = lock::recipe_to_json(pinned_recipe());
  recipe["target"] = 3;
  CHECK(message(recipe) == "l.json: recipe.target: must be a string");
  recipe = lock::recipe_to_json(pinned_recipe());
  recipe["images"] = "none";
  CHECK(message(recipe) == "l.json: recipe.images: must be an array");
  recipe = lock::recipe_to_json(pinned_recipe());
  recipe["upstrem"] = "megatron";
  CHECK(message(recipe) == "l.json: recipe: unknown key 'upstrem'; did you mean 'upstream'?");
}

TEST_CASE("read_locked_recipe: the recipe's bytes must have the sha256 the lock recorded") {
  test::ContextFixture f;
  const auto repo = f.dir.path() / "megatron";
  build::Recipe recipe = spec();
  recipe.path = "README.md";
  recipe.sha256 = util::sha256_hex("megatron\n");
  auto text = build::read_locked_recipe(repo, f.commit, recipe);
  REQUIRE_MESSAGE(text.has_value(), (text ? "" : text.error().message));
  CHECK(*text == "megatron\n");
  recipe.sha256 = std::string(64, '0');
  auto changed = build::read_locked_recipe(repo, f.commit, recipe);
  REQUIRE_FALSE(changed.has_value());
  CHECK(changed.error().code == ExitCode::failed);
  CHECK(changed.error().message == "build.recipe: README.md at commit " + f.commit +
                                       " has sha256 " + util::sha256_hex("megatron\n") +
                                       ", the lock has " + std::string(64, '0'));
  recipe.path = "docker/Dockerfile.gone";
  auto gone = build::read_locked_recipe(repo, f.commit, recipe);
  REQUIRE_FALSE(gone.has_value());
  CHECK(gone.error().message ==
        "build.recipe: docker/Dockerfile.gone not found at commit " + f.commit);
}

TEST_CASE("render_lock: an upstream recipe needs sources.megatron") {
  test::ContextFixture f;
  f.lock.sources.clear();
  f.lock.recipe = pinned_recipe();
  build::RenderRequest request;
  auto out = build::render_lock(f.lock, f.lock_path, request);
  REQUIRE_FALSE(out.has_value());
  CHECK(out.error().message ==
        f.lock_path.string() + ": sources.megatron: missing; the upstream recipe comes from it");
}

TEST_CASE("render: the upstream template puts the directives first, then the pinned recipe") {
  auto lock = lock::read_lock(test::data_path("render/good_lock.json"));
  REQUIRE(lock.has_value());
  lock->recipe = pinned_recipe();
  auto tmpl = build::default_template(build::RecipeKind::upstream);
  REQUIRE(tmpl.has_value());
  auto out = build::render_dockerfile(*lock, "l.json", *tmpl, build::Verifier::include, k_recipe);
  REQUIRE_MESSAGE(out.has_value(), (out ? "" : out.error().message));
  CHECK(out->starts_with("# syntax=docker/dockerfile:1\n# Generated by `envlock render`"));
  CHECK(out->find("FROM registry.invalid/nvidia/pytorch@" + k_digest_a + " AS main\n") !=
        std::string::npos);
  CHECK(out->find("FROM main AS envlock-code\nCOPY . /opt/megatron-lm/\n") != std::string::npos);
  CHECK(out->find("COPY .envlock/envlock-verify /usr/local/bin/envlock-verify\n") !=
        std::string::npos);
  CHECK(out->find("${FROM_IMAGE_NAME} AS") == std::string::npos);
  // Without the recipe's text there is nothing to render.
  auto none = build::render_dockerfile(*lock, "l.json", *tmpl, build::Verifier::omit, {});
  REQUIRE_FALSE(none.has_value());
  CHECK(none.error().message == "l.json: the upstream recipe's text is needed to render it");
}

TEST_CASE("context: with an upstream recipe the tree is at the root, the project's files win") {
  test::ContextFixture f;
  const auto plain = build::plan_context(f.lock, f.lock_path, "FROM x\n", {});
  REQUIRE(plain.has_value());
  CHECK(plain->dockerfile == "Dockerfile");
  f.lock.recipe = pinned_recipe();
  const auto plan = build::plan_context(f.lock, f.lock_path, "FROM y\n", {});
  REQUIRE_MESSAGE(plan.has_value(), (plan ? "" : plan.error().message));
  CHECK(plan->dockerfile == ".envlock/Dockerfile");
  const auto find = [&](const std::string& path) {
    return std::find_if(plan->entries.begin(), plan->entries.end(),
                        [&](const build::ContextEntry& e) { return e.path == path; });
  };
  REQUIRE(find(".envlock/Dockerfile") != plan->entries.end());
  CHECK(find(".envlock/Dockerfile")->data == "FROM y\n");
  REQUIRE(find("uv.lock") != plan->entries.end());
  CHECK(find("uv.lock")->blob.empty()); // the project's file, not the tree's blob
  CHECK(find("megatron-lm") == plan->entries.end());
  for (const auto& entry : plain->entries) {
    if (entry.path.starts_with("megatron-lm/")) {
      CHECK(find(entry.path.substr(12)) != plan->entries.end());
    }
  }
}

TEST_SUITE_END();
