// The nodes' own public keys, as `envlock chain verify --node-keys DIR` reads them: DIR/NODE.pub,
// one per node, each the public half `envlock keygen --node` wrote on that node (its private key
// never leaves it). The file's name names the node; a verdict counts for the node whose key signed
// it, and only when it names that node (docs/manual/chain.md).
#pragma once

#include "provenance/keys.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace envlock::chain {

struct NodeKey {
  std::string node; // the file's name without .pub
  std::string file; // "DIR/NODE.pub", for messages
  provenance::Key key;
};

struct NodeKeys {
  std::vector<NodeKey> keys; // sorted by node

  // The key whose id is `keyid`; nothing when no node has it.
  [[nodiscard]] const NodeKey* by_keyid(const std::string& keyid) const;
};

// Every DIR/NAME.pub (at most 100,000), sorted. An input error when DIR cannot be listed, holds no
// .pub file, a NAME is no node's name (provenance::is_node_name), a file is no Ed25519 public key,
// two nodes share one key, or a key is `provenance_keyid` (the provenance's signer is no node).
Result<NodeKeys> read_node_keys(const std::filesystem::path& dir,
                                const std::string& provenance_keyid);

} // namespace envlock::chain
