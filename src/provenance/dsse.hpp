// DSSE, the Dead Simple Signing Envelope (v1): a payload, its type and signatures over the
// pre-authentication encoding (PAE) of both. On disk it is canonical JSON:
//   {"payload": BASE64, "payloadType": TYPE, "signatures": [{"keyid": HEX, "sig": BASE64}]}
// docs/formats/provenance.md describes the envelope envlock writes and how it is checked.
#pragma once

#include "util/result.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::provenance {

// The payload type of an in-toto statement.
inline constexpr std::string_view k_in_toto_payload_type = "application/vnd.in-toto+json";

struct DsseSignature {
  std::string keyid; // sha256 of the signer's DER SubjectPublicKeyInfo, hex
  std::string sig;   // raw signature bytes
  bool operator==(const DsseSignature&) const = default;
};

struct Envelope {
  std::string payload_type;
  std::string payload; // raw payload bytes
  std::vector<DsseSignature> signatures;
  bool operator==(const Envelope&) const = default;
};

// PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, where LEN is the byte
// length in ASCII decimal: the bytes a signature covers.
std::string pae(std::string_view payload_type, std::string_view payload);

// The envelope as JSON, payload and signatures in Base64.
nlohmann::json to_json(const Envelope& envelope);

// Reads envelope text strictly, so that no byte can change without being noticed: it must be
// the canonical JSON that envlock writes, with exactly the fields above, one or more signatures
// and Base64 with one decoding. Fails with a check failure (exit 1) that names `origin` and the
// fault.
Result<Envelope> parse_envelope(std::string_view text, const std::string& origin);

} // namespace envlock::provenance
