#include "provenance/test_result.hpp"

#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE("provenance") {

  TEST_CASE("a report becomes a Test Result statement: subjects, result, configuration, tests") {
    formats::Report report;
    report.lock_sha256 = std::string(64, 'c');
    report.image_digest = "sha256:" + std::string(64, 'd');
    report.sqsh_sha256 = std::string(64, 'e');
    for (const auto& [id, outcome] : {std::pair{"cuda.runtime", formats::Outcome::pass},
                                      std::pair{"gpu.count", formats::Outcome::skip},
                                      std::pair{"nccl.version", formats::Outcome::pass}}) {
      formats::CheckResult check;
      check.id = id;
      check.outcome = outcome;
      report.checks.push_back(check);
    }
    const auto statement = provenance::test_result_statement(report, "r.json");
    REQUIRE(statement.has_value());
    CHECK((*statement)["predicateType"] == "https://in-toto.io/attestation/test-result/v0.1");
    CHECK((*statement)["subject"][0]["digest"]["sha256"] == std::string(64, 'd'));
    CHECK((*statement)["subject"][1]["name"] == "image.sqsh");
    const nlohmann::json& predicate = (*statement)["predicate"];
    CHECK(predicate["result"] == "WARNED");
    CHECK(predicate["configuration"][0]["digest"]["sha256"] == std::string(64, 'c'));
    CHECK(predicate["passedTests"] == nlohmann::json::array({"cuda.runtime", "nccl.version"}));
    CHECK(predicate["warnedTests"] == nlohmann::json::array({"gpu.count"}));
    CHECK(predicate["failedTests"] == nlohmann::json::array());

    formats::Report failing = report;
    failing.checks[0].outcome = formats::Outcome::fail;
    CHECK((*provenance::test_result_statement(failing, "r.json"))["predicate"]["result"] ==
          "FAILED");
    formats::Report no_image = report;
    no_image.image_digest.reset();
    const auto refused = provenance::test_result_statement(no_image, "r.json");
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message ==
          "r.json: records no image_digest: the verdict would name no image");
  }
}
