#include "provenance/dsse.hpp"

#include "util/base64.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

#include <set>

namespace envlock::provenance {

namespace {

using nlohmann::json;

// The object's keys must be exactly `keys`; a message names the first one missing or extra.
Status exact_keys(const json& object, const std::set<std::string>& keys, const std::string& where) {
  for (const auto& [key, value] : object.items()) {
    if (keys.count(key) == 0) {
      return check_failed(where + ": unexpected field '" + key + "'");
    }
  }
  for (const std::string& key : keys) {
    if (!object.contains(key)) {
      return check_failed(where + ": missing field '" + key + "'");
    }
  }
  return {};
}

Result<std::string> string_field(const json& object, const std::string& key,
                                 const std::string& where) {
  const json& value = object.at(key);
  if (!value.is_string()) {
    return check_failed(where + ": " + key + " is not a string");
  }
  return value.get<std::string>();
}

Result<std::string> base64_field(const json& object, const std::string& key,
                                 const std::string& where) {
  ENVLOCK_TRY_ASSIGN(const std::string text, string_field(object, key, where));
  auto bytes = util::base64_decode_strict(text);
  if (!bytes) {
    return check_failed(where + ": " + key + " is not valid Base64");
  }
  return std::move(*bytes);
}

Result<DsseSignature> parse_signature(const json& value, const std::string& where) {
  if (!value.is_object()) {
    return check_failed(where + " is not an object");
  }
  ENVLOCK_TRY(exact_keys(value, {"keyid", "sig"}, where));
  DsseSignature signature;
  ENVLOCK_TRY_ASSIGN(signature.keyid, string_field(value, "keyid", where));
  if (signature.keyid.size() != 64 || !util::is_hex(signature.keyid) ||
      util::to_lower(signature.keyid) != signature.keyid) {
    return check_failed(where + ": keyid is not 64 lowercase hex digits");
  }
  ENVLOCK_TRY_ASSIGN(signature.sig, base64_field(value, "sig", where));
  return signature;
}

} // namespace

std::string pae(std::string_view payload_type, std::string_view payload) {
  std::string out = "DSSEv1 ";
  out += std::to_string(payload_type.size());
  out += ' ';
  out += payload_type;
  out += ' ';
  out += std::to_string(payload.size());
  out += ' ';
  out += payload;
  return out;
}

json to_json(const Envelope& envelope) {
  json signatures = json::array();
  for (const DsseSignature& signature : envelope.signatures) {
    signatures.push_back({{"keyid", signature.keyid}, {"sig", util::base64_encode(signature.sig)}});
  }
  return {{"payload", util::base64_encode(envelope.payload)},
          {"payloadType", envelope.payload_type},
          {"signatures", std::move(signatures)}};
}

Result<Envelope> parse_envelope(std::string_view text, const std::string& origin) {
  auto parsed = util::parse_json(text, origin);
  if (!parsed) {
    return check_failed(parsed.error().message + " (not a DSSE envelope)");
  }
  const json& value = *parsed;
  if (!value.is_object()) {
    return check_failed(origin + ": not a DSSE envelope (a JSON object)");
  }
  // Canonical form pins the bytes between the fields too: white space, key order, escapes.
  if (util::canonical_json(value) != text) {
    return check_failed(origin + ": not in the canonical form envlock writes (changed after "
                                 "signing?)");
  }
  ENVLOCK_TRY(exact_keys(value, {"payload", "payloadType", "signatures"}, origin));
  Envelope envelope;
  ENVLOCK_TRY_ASSIGN(envelope.payload_type, string_field(value, "payloadType", origin));
  ENVLOCK_TRY_ASSIGN(envelope.payload, base64_field(value, "payload", origin));
  const json& signatures = value.at("signatures");
  if (!signatures.is_array() || signatures.empty()) {
    return check_failed(origin + ": signatures is not a non-empty array");
  }
  for (std::size_t i = 0; i < signatures.size(); ++i) {
    ENVLOCK_TRY_ASSIGN(
        DsseSignature signature,
        parse_signature(signatures[i], origin + ": signatures[" + std::to_string(i) + "]"));
    envelope.signatures.push_back(std::move(signature));
  }
  return envelope;
}

} // namespace envlock::provenance
