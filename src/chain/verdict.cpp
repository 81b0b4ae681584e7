#include "chain/verdict.hpp"

#include "provenance/dsse.hpp"
#include "provenance/keys.hpp"
#include "provenance/signing.hpp"
#include "provenance/test_result.hpp"
#include "util/sha256.hpp"

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

// The node key that signed the envelope: the one whose id the signature names (the signature is
// then checked with it, so naming another node's id gains nothing).
Result<const NodeKey*> signer_of(std::string_view text, const std::string& origin,
                                 const std::string& provenance_keyid, const NodeKeys* node_keys) {
  namespace pv = provenance;
  ENVLOCK_TRY_ASSIGN(const pv::Envelope envelope, pv::parse_envelope(text, origin));
  if (envelope.signatures.size() != 1) {
    return check_failed(origin + ": " + std::to_string(envelope.signatures.size()) +
                        " signatures; a node verdict has exactly one, its node's");
  }
  const std::string& keyid = envelope.signatures.front().keyid;
  if (keyid == provenance_keyid) {
    return check_failed(origin + ": signed with the provenance's key (" + keyid +
                        "), not a node's own: a node signs its verdict with the key `envlock "
                        "keygen --node` made on it");
  }
  if (node_keys == nullptr) {
    return check_failed(origin + ": a node verdict is checked with its node's own key: give "
                                 "--node-keys DIR (NODE.pub of each node)");
  }
  const NodeKey* key = node_keys->by_keyid(keyid);
  if (key == nullptr) {
    return check_failed(origin + ": signed by key " + keyid + ", which is no node's key in " +
                        "--node-keys");
  }
  return key;
}

} // namespace

bool is_envelope(const json& doc) {
  return doc.is_object() && doc.contains("payloadType") && doc.contains("payload") &&
         doc.contains("signatures");
}

Result<NodeRecord> verdict_record(std::string_view text, const std::string& origin,
                                  const std::string& provenance_keyid, const NodeKeys* node_keys) {
  namespace pv = provenance;
  ENVLOCK_TRY_ASSIGN(const NodeKey* signer, signer_of(text, origin, provenance_keyid, node_keys));
  ENVLOCK_TRY_ASSIGN(const pv::VerifiedStatement verified,
                     pv::verify_envelope(text, origin, signer->key, signer->file));
  const json& statement = verified.statement;
  if (verdict_text(statement, "predicateType") != pv::k_test_result_predicate_type) {
    return check_failed(origin + ": predicateType is '" + verdict_text(statement, "predicateType") +
                        "', not " + pv::k_test_result_predicate_type);
  }
  const json predicate = statement.value("predicate", json::object());
  auto run = pv::read_verdict_run(predicate, origin);
  if (!run) {
    return check_failed(run.error().message + " (a verdict names its node, GPUs, mode and time)");
  }
  if (run->node != signer->node) {
    return check_failed(origin + ": names node " + run->node + ", but is signed by " +
                        signer->node + "'s key (" + signer->file +
                        "): a node signs only its own verdict");
  }
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
  record.who = {run->node,
                run->gpus,
                pv::to_string(run->mode),
                run->root,
                run->checked_at,
                /*signed_by_node=*/true,
                util::sha256_hex(pv::parse_envelope(text, origin)->payload)};
  return record;
}

} // namespace envlock::chain
