#include "provenance/test_result.hpp"

#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE("provenance") {

  formats::Report passing_report() {
    formats::Report report;
    report.lock_sha256 = std::string(64, 'c');
    report.image_digest = "sha256:" + std::string(64, 'd');
    report.sqsh_sha256 = std::string(64, 'e');
    report.mode = "live";
    report.gpu_uuids = {"GPU-1", "GPU-2"};
    report.run.hostname = "node001";
    report.run.started_at = "2026-11-30T19:00:00Z";
    for (const auto& [id, outcome] : {std::pair{"cuda.runtime", formats::Outcome::pass},
                                      std::pair{"gpu.count", formats::Outcome::skip},
                                      std::pair{"nccl.version", formats::Outcome::pass}}) {
      formats::CheckResult check;
      check.id = id;
      check.outcome = outcome;
      report.checks.push_back(check);
    }
    return report;
  }

  TEST_CASE("a report becomes a Test Result statement: subjects, result, configuration, tests") {
    const formats::Report report = passing_report();
    const auto run = provenance::verdict_run(report, "r.json", "2026-11-30T19:05:00Z");
    REQUIRE(run.has_value());
    const auto statement = provenance::test_result_statement(report, *run, "r.json");
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
    CHECK(predicate["envlock"] == nlohmann::json{{"node", "node001"},
                                                 {"gpus", {"GPU-1", "GPU-2"}},
                                                 {"mode", "gpus"},
                                                 {"root", ""},
                                                 {"checkedAt", "2026-11-30T19:00:00Z"},
                                                 {"signedAt", "2026-11-30T19:05:00Z"}});
    const auto back = provenance::read_verdict_run(predicate, "v.json");
    REQUIRE(back.has_value());
    CHECK(*back == *run);

    formats::Report failing = report;
    failing.checks[0].outcome = formats::Outcome::fail;
    CHECK((*provenance::test_result_statement(failing, *run, "r.json"))["predicate"]["result"] ==
          "FAILED");
    formats::Report no_image = report;
    no_image.image_digest.reset();
    const auto refused = provenance::test_result_statement(no_image, *run, "r.json");
    REQUIRE_FALSE(refused.has_value());
    CHECK(refused.error().message ==
          "r.json: records no image_digest: the verdict would name no image");
  }

  TEST_CASE("a verdict's run: the mode from the report, and what names no node or time") {
    formats::Report offline = passing_report();
    offline.mode = "offline";
    offline.gpu_uuids.clear();
    offline.run.root = "/tmp/rootfs";
    const auto off = provenance::verdict_run(offline, "r.json", "2026-11-30T19:05:00Z");
    REQUIRE(off.has_value());
    CHECK(off->mode == provenance::VerdictMode::offline);
    CHECK(off->root == "/tmp/rootfs");
    formats::Report rooted = passing_report();
    rooted.run.root = "/img";
    CHECK(provenance::verdict_run(rooted, "r.json", "t")->mode == provenance::VerdictMode::offline);
    formats::Report no_gpu = passing_report();
    no_gpu.gpu_uuids.clear();
    CHECK(provenance::verdict_run(no_gpu, "r.json", "t")->mode == provenance::VerdictMode::live);

    formats::Report nameless = passing_report();
    nameless.run.hostname = "../node";
    CHECK(provenance::verdict_run(nameless, "r.json", "t").error().message ==
          "r.json: run.hostname '../node' is no node's name: the verdict would name no node");
    formats::Report timeless = passing_report();
    timeless.run.started_at = "yesterday";
    CHECK(provenance::verdict_run(timeless, "r.json", "t").error().message ==
          "r.json: run.started_at 'yesterday' is no time (YYYY-MM-DDTHH:MM:SSZ): the verdict "
          "would name no time");
  }

  TEST_CASE("predicate.envlock is read strictly") {
    const nlohmann::json good = {{"envlock",
                                  {{"node", "node001"},
                                   {"gpus", {"GPU-1"}},
                                   {"mode", "gpus"},
                                   {"root", ""},
                                   {"checkedAt", "2026-11-30T19:00:00Z"},
                                   {"signedAt", "2026-11-30T19:05:00Z"}}}};
    CHECK(provenance::read_verdict_run(good, "v.json").has_value());
    CHECK(provenance::read_verdict_run(nlohmann::json::object(), "v.json").error().message ==
          "v.json: predicate.envlock: missing");
    nlohmann::json bad_mode = good;
    bad_mode["envlock"]["mode"] = "root";
    CHECK(provenance::read_verdict_run(bad_mode, "v.json").error().message ==
          "v.json: predicate.envlock.mode: 'root' is not gpus, live or offline");
    nlohmann::json no_gpus = good;
    no_gpus["envlock"]["gpus"] = nlohmann::json::array();
    CHECK(provenance::read_verdict_run(no_gpus, "v.json").error().message ==
          "v.json: predicate.envlock.gpus: empty, but mode is gpus");
    nlohmann::json extra = good;
    extra["envlock"]["nodes"] = "x";
    CHECK(provenance::read_verdict_run(extra, "v.json").error().message ==
          "v.json: predicate.envlock: unknown key 'nodes'; did you mean 'node'?");
    nlohmann::json offline_gpus = good;
    offline_gpus["envlock"]["mode"] = "offline";
    CHECK(provenance::read_verdict_run(offline_gpus, "v.json").error().message ==
          "v.json: predicate.envlock.gpus: GPUs named, but mode is offline");
    nlohmann::json live_root = good;
    live_root["envlock"]["root"] = "/img";
    CHECK(provenance::read_verdict_run(live_root, "v.json").error().message ==
          "v.json: predicate.envlock.root: '/img', but mode is gpus, not offline");
    nlohmann::json backwards = good;
    backwards["envlock"]["signedAt"] = "2026-11-30T18:00:00Z";
    CHECK(provenance::read_verdict_run(backwards, "v.json").error().message ==
          "v.json: predicate.envlock.signedAt: 2026-11-30T18:00:00Z is before checkedAt "
          "2026-11-30T19:00:00Z");
    nlohmann::json bad_time = good;
    bad_time["envlock"]["checkedAt"] = "2026-11-30 19:00:00";
    CHECK(provenance::read_verdict_run(bad_time, "v.json").error().message ==
          "v.json: predicate.envlock.checkedAt: '2026-11-30 19:00:00' is no time "
          "(YYYY-MM-DDTHH:MM:SSZ)");
  }
}
