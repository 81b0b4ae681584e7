// A node's signed verdict (provenance/test_result.hpp: a DSSE envelope of an in-toto Statement
// with the Test Result predicate) as a record of the chain: its signature checked with the same
// public key as the provenance, then read into the fields a verification report's links are
// checked by, so `envlock chain verify` takes either for a node.
#pragma once

#include "chain/chain.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace envlock::chain {

// Whether `doc` is a DSSE envelope (payloadType, payload, signatures): a candidate verdict.
bool is_envelope(const nlohmann::json& doc);

// The verdict in `text`, verified with the key at `public_key`, as a node record: the lock, image
// and .sqsh it names and its result (PASSED or WARNED: pass) with its counts (warned tests count
// as skipped). A check failure (exit 1) when the signature does not hold or the statement is no
// test result; an input error when it names no lock (configuration envlock.lock.json) or image.
Result<NodeRecord> verdict_record(std::string_view text, const std::string& origin,
                                  const std::filesystem::path& public_key);

} // namespace envlock::chain
