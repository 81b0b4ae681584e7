#include "git/blob_reader.hpp"

#include "git/git2.hpp"
#include "git/repository.hpp"

namespace envlock::git {

struct BlobReader::State {
  RepositoryPtr repository;
  std::string shown;
};

BlobReader::BlobReader(std::unique_ptr<State> state) : m_state(std::move(state)) {}
BlobReader::BlobReader(BlobReader&&) noexcept = default;
BlobReader& BlobReader::operator=(BlobReader&&) noexcept = default;
BlobReader::~BlobReader() = default;

Result<BlobReader> BlobReader::open(const std::filesystem::path& repo) {
  auto state = std::make_unique<State>();
  state->shown = repo.string();
  ENVLOCK_TRY_ASSIGN(state->repository, open_repository(repo, state->shown));
  return BlobReader(std::move(state));
}

Status BlobReader::read(std::string_view oid,
                        const std::function<Status(std::string_view)>& sink) const {
  const std::string hex(oid);
  git_oid id;
  git_blob* raw = nullptr;
  if (git_oid_fromstr(&id, hex.c_str()) < 0 ||
      git_blob_lookup(&raw, m_state->repository.get(), &id) < 0) {
    return env_error("cannot read blob " + hex + " in " + m_state->shown + ": " +
                     last_error_message());
  }
  const BlobPtr blob(raw);
  const auto* data = static_cast<const char*>(git_blob_rawcontent(blob.get()));
  return sink(std::string_view(data, static_cast<std::size_t>(git_blob_rawsize(blob.get()))));
}

} // namespace envlock::git
