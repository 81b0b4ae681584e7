#include "provenance/test_result.hpp"

#include "provenance/statement.hpp"

namespace envlock::provenance {

using nlohmann::json;

namespace {

std::string report_text(const json& value, const char* key) {
  const auto it = value.find(key);
  return it != value.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

Result<json> test_result_statement(const json& report, const std::string& origin) {
  if (!report.is_object() || report_text(report, "schema") != "envlock.report/v1") {
    return input_error(origin + ": not a verification report (schema envlock.report/v1)");
  }
  const std::string lock = report_text(report, "lock_sha256");
  const std::string image = report_text(report, "image_digest");
  if (lock.empty()) {
    return input_error(origin + ": records no lock_sha256: the verdict would name no lock");
  }
  if (!image.starts_with("sha256:")) {
    return input_error(origin + ": records no image_digest: the verdict would name no image");
  }
  json subject = json::array({{{"name", "image"}, {"digest", digest_set(image)}}});
  if (const std::string sqsh = report_text(report, "sqsh_sha256"); !sqsh.empty()) {
    subject.push_back({{"name", "image.sqsh"}, {"digest", {{"sha256", sqsh}}}});
  }
  json passed = json::array();
  json warned = json::array();
  json failed = json::array();
  const auto checks = report.find("checks");
  if (checks != report.end() && checks->is_array()) {
    for (const auto& check : *checks) {
      const std::string id = report_text(check, "id");
      const std::string outcome = report_text(check, "outcome");
      (outcome == "pass" ? passed : outcome == "fail" ? failed : warned).push_back(id);
    }
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
