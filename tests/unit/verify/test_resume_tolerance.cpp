// expect.resume as the resume check reads it from the lock: defaults and errors word for word.
#include "../testutil.hpp"
#include "manifest/manifest.hpp"
#include "util/fs.hpp"
#include "verify/resume/tolerance.hpp"

#include <doctest/doctest.h>

using namespace envlock;
using namespace envlock::verify;

TEST_SUITE_BEGIN("verify");

TEST_CASE("expect.resume: defaults, values, and errors word for word") {
  const auto defaults = read_resume_tolerance(nlohmann::json::object());
  REQUIRE(defaults);
  CHECK(defaults->steps == 100);
  CHECK(defaults->checkpoint_step == 50);
  CHECK(defaults->loss_abs == 0);

  const auto set = read_resume_tolerance(
      nlohmann::json::parse(R"({"steps": 40, "loss_abs": 1e-4, "param_rel": 0.01})"));
  REQUIRE(set);
  CHECK(set->checkpoint_step == 20);
  CHECK(set->loss_abs == 1e-4);
  CHECK(set->param_rel == 0.01);

  const auto error = [](const char* json) {
    return read_resume_tolerance(nlohmann::json::parse(json)).error().message;
  };
  CHECK(error(R"({"los_abs": 1})") ==
        "expect.resume: unknown key 'los_abs'; did you mean 'loss_abs'?");
  CHECK(error(R"({"loss_abs": -1})") == "expect.resume.loss_abs: expected a number >= 0");
  CHECK(error(R"({"steps": 1.5})") == "expect.resume.steps: expected an integer >= 1");
  CHECK(error(R"({"steps": 10, "checkpoint_step": 10})") ==
        "expect.resume.checkpoint_step: must be between 1 and steps - 1 (9)");
  CHECK(error("[1]") == "expect.resume: expected a mapping");
}

TEST_CASE("expect.resume in the manifest: keys and values are checked where they are written") {
  const auto text = util::read_file(test::data_path("manifest/good_minimal.yaml"));
  REQUIRE(text);
  const auto parse = [&](const std::string& resume) {
    return manifest::parse_manifest(*text + "expect:\n  resume: " + resume + "\n", "m.yaml");
  };
  const auto good = parse("{steps: 40, loss_abs: 1.0e-6}");
  REQUIRE_MESSAGE(good, good.error().message);
  CHECK(lock::resume_expect_to_json(good->expect.resume) ==
        nlohmann::json::parse(R"({"steps": 40, "loss_abs": 1e-6})"));
  const auto unknown = parse("{los_abs: 1}");
  REQUIRE_FALSE(unknown);
  CHECK(unknown.error().message.find("unknown key 'los_abs'") != std::string::npos);
  CHECK(unknown.error().message.find("did you mean 'loss_abs'?") != std::string::npos);
  const auto negative = parse("{param_rel: -1}");
  REQUIRE_FALSE(negative);
  CHECK(negative.error().message.find("must be a number >= 0, got '-1'") != std::string::npos);
  const auto zero = parse("{steps: 0}");
  REQUIRE_FALSE(zero);
  CHECK(zero.error().message.find("must be an integer >= 1, got '0'") != std::string::npos);
}

TEST_SUITE_END();
