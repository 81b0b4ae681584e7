// Signing a provenance statement into a DSSE envelope, and checking such an envelope: its form,
// signer, signature, payload type and, when asked, its subject.
#pragma once

#include "provenance/dsse.hpp"
#include "provenance/keys.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace envlock::provenance {

// The envelope of `statement` (the exact bytes of an in-toto Statement v1) signed by `key`. An
// input error names `origin` when the bytes are not JSON or not such a statement.
Result<Envelope> sign_statement(std::string_view statement, const Key& key,
                                const std::string& origin);

struct VerifiedStatement {
  nlohmann::json statement; // the payload, parsed
  std::string keyid;
};

// Checks envelope text against `public_key` (named `key_origin` in messages). A check failure
// (exit 1) names `origin` and what failed: the envelope's form, the number of signatures, the
// signer ("signed by key A, not by KEY.pub (key B)"), the signature, the payload type or the
// payload (not an in-toto Statement v1).
Result<VerifiedStatement> verify_envelope(std::string_view text, const std::string& origin,
                                          const Key& public_key, const std::string& key_origin);

// Checks that some subject of a verified statement has `digest` ("sha256:HEX"); a check failure
// otherwise, listing the subjects. An input error when `digest` is not sha256:<64 hex>.
Status check_subject_digest(const nlohmann::json& statement, const std::string& digest,
                            const std::string& origin);

// The lock a provenance statement describes: the sha256 of
// predicate.buildDefinition.externalParameters.lockFile.digest; empty when it names none.
std::string statement_lock_sha256(const nlohmann::json& statement);

} // namespace envlock::provenance
