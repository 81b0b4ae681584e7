#include "provenance/signing.hpp"

#include "provenance/statement.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

namespace envlock::provenance {

using nlohmann::json;

namespace {

// Why `value` is not an in-toto Statement v1, or nothing when it is one.
std::optional<std::string> statement_fault(const json& value) {
  if (!value.is_object()) {
    return "not a JSON object";
  }
  const auto type = value.find("_type");
  if (type == value.end() || !type->is_string()) {
    return "no _type";
  }
  if (*type != k_statement_type) {
    return "_type is '" + type->get<std::string>() + "', not " + k_statement_type;
  }
  const auto subject = value.find("subject");
  if (subject == value.end() || !subject->is_array() || subject->empty()) {
    return "no subject";
  }
  for (const json& item : *subject) {
    if (!item.is_object() || !item.contains("digest") || !item["digest"].is_object()) {
      return "a subject has no digest";
    }
  }
  return std::nullopt;
}

std::string subject_list(const json& statement) {
  std::vector<std::string> items;
  for (const json& item : statement["subject"]) {
    std::string text = item.value("name", std::string("_"));
    for (const auto& [algorithm, hex] : item["digest"].items()) {
      text += " " + algorithm + ":" + (hex.is_string() ? hex.get<std::string>() : hex.dump());
    }
    items.push_back(text);
  }
  return util::join(items, ", ");
}

} // namespace

Result<Envelope> sign_statement(std::string_view statement, const Key& key,
                                const std::string& origin) {
  ENVLOCK_TRY_ASSIGN(const json parsed, util::parse_json(statement, origin));
  if (const auto fault = statement_fault(parsed)) {
    return input_error(origin + ": not an in-toto Statement v1: " + *fault);
  }
  Envelope envelope;
  envelope.payload_type = k_in_toto_payload_type;
  envelope.payload = statement;
  ENVLOCK_TRY_ASSIGN(std::string sig,
                     sign_message(key, pae(envelope.payload_type, envelope.payload)));
  envelope.signatures.push_back({key.key_id(), std::move(sig)});
  return envelope;
}

Result<VerifiedStatement> verify_envelope(std::string_view text, const std::string& origin,
                                          const Key& public_key, const std::string& key_origin) {
  ENVLOCK_TRY_ASSIGN(const Envelope envelope, parse_envelope(text, origin));
  if (envelope.signatures.size() != 1) {
    return check_failed(origin + ": " + std::to_string(envelope.signatures.size()) +
                        " signatures; envlock verifies envelopes with exactly one");
  }
  const DsseSignature& signature = envelope.signatures.front();
  if (signature.keyid != public_key.key_id()) {
    return check_failed(origin + ": signed by key " + signature.keyid + ", not by " + key_origin +
                        " (key " + public_key.key_id() + ")");
  }
  ENVLOCK_TRY_ASSIGN(
      const bool valid,
      signature_matches(public_key, pae(envelope.payload_type, envelope.payload), signature.sig));
  if (!valid) {
    return check_failed(origin +
                        ": signature check failed: the signature does not match the "
                        "payload and its type under " +
                        key_origin);
  }
  if (envelope.payload_type != k_in_toto_payload_type) {
    return check_failed(origin + ": payload type is '" + envelope.payload_type + "', not '" +
                        std::string(k_in_toto_payload_type) + "'");
  }
  auto parsed = util::parse_json(envelope.payload, origin + ": payload");
  if (!parsed) {
    return check_failed(parsed.error().message);
  }
  if (const auto fault = statement_fault(*parsed)) {
    return check_failed(origin + ": payload is not an in-toto Statement v1: " + *fault);
  }
  return VerifiedStatement{std::move(*parsed), signature.keyid};
}

Status check_subject_digest(const json& statement, const std::string& digest,
                            const std::string& origin) {
  const std::string hex = digest.rfind("sha256:", 0) == 0 ? digest.substr(7) : "";
  if (hex.size() != 64 || !util::is_hex(hex) || util::to_lower(hex) != hex) {
    return input_error("--image-digest '" + digest + "' is not sha256:<64 lowercase hex>");
  }
  for (const json& item : statement["subject"]) {
    const auto found = item["digest"].find("sha256");
    if (found != item["digest"].end() && *found == hex) {
      return {};
    }
  }
  return check_failed(origin + ": subject mismatch: no subject has digest " + digest +
                      " (subjects: " + subject_list(statement) + ")");
}

std::string statement_lock_sha256(const json& statement) {
  const auto pointer =
      json::json_pointer("/predicate/buildDefinition/externalParameters/lockFile/digest/sha256");
  return statement.is_object() && statement.contains(pointer) && statement[pointer].is_string()
             ? statement[pointer].get<std::string>()
             : std::string();
}

} // namespace envlock::provenance
