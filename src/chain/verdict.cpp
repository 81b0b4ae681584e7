#include "chain/verdict.hpp"

#include "provenance/keys.hpp"
#include "provenance/signing.hpp"
#include "provenance/test_result.hpp"

namespace envlock::chain {

using nlohmann::json;

namespace {

std::string verdict_text(const json& value, const char* key) {
  const auto it = value.find(key);
  return it != value.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::size_t count_of(const json& predicate, const char* key) {
  const auto it = predicate.find(key);
  return it != predicate.end() && it->is_array() ? it->size() : 0;
}

} // namespace

bool is_envelope(const json& doc) {
  return doc.is_object() && doc.contains("payloadType") && doc.contains("payload") &&
         doc.contains("signatures");
}

Result<NodeRecord> verdict_record(std::string_view text, const std::string& origin,
                                  const std::filesystem::path& public_key) {
  namespace pv = provenance;
  ENVLOCK_TRY_ASSIGN(const pv::Key key, pv::read_key(public_key, pv::KeyHalf::public_key));
  ENVLOCK_TRY_ASSIGN(const pv::VerifiedStatement verified,
                     pv::verify_envelope(text, origin, key, public_key.string()));
  const json& statement = verified.statement;
  if (verdict_text(statement, "predicateType") != pv::k_test_result_predicate_type) {
    return check_failed(origin + ": predicateType is '" + verdict_text(statement, "predicateType") +
                        "', not " + pv::k_test_result_predicate_type);
  }
  const json predicate = statement.value("predicate", json::object());
  NodeRecord record;
  for (const auto& entry : predicate.value("configuration", json::array())) {
    if (entry.is_object() && verdict_text(entry, "name") == pv::k_test_result_lock_name &&
        entry.contains("digest") && entry["digest"].is_object()) {
      record.lock_sha256 = verdict_text(entry["digest"], "sha256");
    }
  }
  for (const auto& subject : statement["subject"]) {
    const std::string sha = verdict_text(subject["digest"], "sha256");
    const std::string name = verdict_text(subject, "name");
    if (name == "image" && !sha.empty()) {
      record.image_digest = "sha256:" + sha;
    } else if (name.ends_with(".sqsh") && !sha.empty()) {
      record.sqsh_sha256 = sha;
    }
  }
  if (record.lock_sha256.empty() || !record.image_digest) {
    return input_error(origin + ": the verdict names no lock (configuration " +
                       pv::k_test_result_lock_name + ") or no image subject");
  }
  const std::string result = verdict_text(predicate, "result");
  record.outcome.outcome = result == "PASSED" || result == "WARNED" ? "pass" : "fail";
  record.outcome.counts =
      counts_text({count_of(predicate, "passedTests"), count_of(predicate, "failedTests"),
                   count_of(predicate, "warnedTests")});
  return record;
}

} // namespace envlock::chain
