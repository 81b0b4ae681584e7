// Reading many blobs of one repository through a single open handle, for exporting a whole tree
// (the build context) without reopening the repository for every file.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace envlock::git {

class BlobReader {
public:
  BlobReader(BlobReader&&) noexcept;
  BlobReader& operator=(BlobReader&&) noexcept;
  BlobReader(const BlobReader&) = delete;
  BlobReader& operator=(const BlobReader&) = delete;
  ~BlobReader();

  // Opens the local repository at `repo` (bare or not, no parent search). Fails with the input
  // error "no git repository at REPO".
  static Result<BlobReader> open(const std::filesystem::path& repo);

  // Calls `sink` once with the bytes of the blob `oid` (40 hex) and returns what it returns.
  // Fails with an environment error "cannot read blob OID in REPO: REASON".
  Status read(std::string_view oid, const std::function<Status(std::string_view)>& sink) const;

private:
  struct State;
  explicit BlobReader(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

} // namespace envlock::git
