#include "provenance/test_result.hpp"

#include "provenance/statement.hpp"

namespace envlock::provenance {

using nlohmann::json;

Result<json> test_result_statement(const formats::Report& report, const std::string& origin) {
  const std::string& lock = report.lock_sha256;
  const std::string image = report.image_digest.value_or("");
  if (lock.empty()) {
    return input_error(origin + ": records no lock_sha256: the verdict would name no lock");
  }
  if (!image.starts_with("sha256:")) {
    return input_error(origin + ": records no image_digest: the verdict would name no image");
  }
  json subject = json::array({{{"name", "image"}, {"digest", digest_set(image)}}});
  if (report.sqsh_sha256 && !report.sqsh_sha256->empty()) {
    subject.push_back({{"name", "image.sqsh"}, {"digest", {{"sha256", *report.sqsh_sha256}}}});
  }
  json passed = json::array();
  json warned = json::array();
  json failed = json::array();
  for (const formats::CheckResult& check : report.checks) {
    (check.outcome == formats::Outcome::pass   ? passed
     : check.outcome == formats::Outcome::fail ? failed
                                               : warned)
        .push_back(check.id);
  }
  const std::string result = !failed.empty() ? "FAILED" : !warned.empty() ? "WARNED" : "PASSED";
  return json{{"_type", k_statement_type},
              {"subject", subject},
              {"predicateType", k_test_result_predicate_type},
              {"predicate",
               {{"result", result},
                {"configuration", json::array({{{"name", k_test_result_lock_name},
                                                {"digest", {{"sha256", lock}}}}})},
                {"passedTests", passed},
                {"warnedTests", warned},
                {"failedTests", failed}}}};
}

} // namespace envlock::provenance
