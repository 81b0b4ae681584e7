#include "chain/node_keys.hpp"

#include "provenance/test_result.hpp"

#include <algorithm>
#include <map>
#include <system_error>

namespace envlock::chain {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t k_node_keys_limit = 100000;

} // namespace

const NodeKey* NodeKeys::by_keyid(const std::string& keyid) const {
  for (const NodeKey& key : keys) {
    if (key.key.key_id() == keyid) {
      return &key;
    }
  }
  return nullptr;
}

Result<NodeKeys> read_node_keys(const fs::path& dir, const std::string& provenance_keyid) {
  const std::string where = "--node-keys " + dir.string();
  std::error_code ec;
  std::vector<fs::path> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".pub") {
      files.push_back(it->path());
    }
    if (files.size() > k_node_keys_limit) {
      return input_error(where + ": more than " + std::to_string(k_node_keys_limit) + " node keys");
    }
  }
  if (ec) {
    return input_error(where + ": cannot list: " + ec.message());
  }
  if (files.empty()) {
    return input_error(where + ": no NODE.pub file (envlock keygen --node writes one per node)");
  }
  std::sort(files.begin(), files.end());
  NodeKeys out;
  std::map<std::string, std::string> owner; // key id -> node
  for (const fs::path& path : files) {
    const std::string node = path.stem().string();
    const std::string file = (dir / path.filename()).string();
    if (!provenance::is_node_name(node)) {
      return input_error(where + ": '" + path.filename().string() + "' names no node");
    }
    ENVLOCK_TRY_ASSIGN(provenance::Key key,
                       provenance::read_key(path, provenance::KeyHalf::public_key));
    if (key.key_id() == provenance_keyid) {
      return input_error(file + " is the provenance's signing key (key " + provenance_keyid +
                         "): a node signs with its own key (envlock keygen --node)");
    }
    const auto [it, fresh] = owner.emplace(key.key_id(), node);
    if (!fresh) {
      return input_error(file + " is also " + it->second +
                         "'s key: each node signs with a key of its own");
    }
    out.keys.push_back({node, file, std::move(key)});
  }
  return out;
}

} // namespace envlock::chain
