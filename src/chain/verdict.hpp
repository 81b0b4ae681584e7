// A node's signed verdict (provenance/test_result.hpp: a DSSE envelope of an in-toto Statement
// with the Test Result predicate) as a record of the chain: its signature checked with the key of
// the node it names (node_keys.hpp), never the provenance's, then read into the fields a
// verification report's links are checked by, so `envlock chain verify` takes either for a node.
#pragma once

#include "chain/chain.hpp"
#include "chain/node_keys.hpp"
#include "util/result.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace envlock::chain {

// Whether `doc` is a DSSE envelope (payloadType, payload, signatures): a candidate verdict.
bool is_envelope(const nlohmann::json& doc);

// The verdict in `text` as a node record: the lock, image and .sqsh it names, its result (PASSED
// or WARNED: pass) with its counts (warned tests count as skipped) and its run (node, GPUs, mode,
// time). A check failure (exit 1) naming `origin` when no node keys were given, when the signer is
// the provenance's key (`provenance_keyid`) or no node's, when the signature does not hold under
// the signer node's key, when the verdict names another node than the key's, or when the
// statement is no test result or its run does not read; an input error when it names no lock
// (configuration envlock.lock.json) or image.
Result<NodeRecord> verdict_record(std::string_view text, const std::string& origin,
                                  const std::string& provenance_keyid, const NodeKeys* node_keys);

} // namespace envlock::chain
