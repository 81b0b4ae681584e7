#include "git/repository.hpp"

#include <string>

namespace envlock::git {

Result<RepositoryPtr> open_repository(const std::filesystem::path& path, std::string_view shown) {
  init_libgit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) < 0) {
    return input_error("no git repository at " + std::string(shown));
  }
  return RepositoryPtr(raw);
}

Result<CommitPtr> lookup_commit(git_repository* repo, std::string_view commit,
                                std::string_view shown) {
  const std::string spec(commit);
  git_object* raw = nullptr;
  if (git_revparse_single(&raw, repo, spec.c_str()) < 0) {
    return input_error("commit '" + spec + "' not found in " + std::string(shown));
  }
  const ObjectPtr object(raw);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, object.get(), GIT_OBJECT_COMMIT) < 0) {
    return input_error("'" + spec + "' in " + std::string(shown) + " is not a commit");
  }
  const ObjectPtr peeled_object(peeled);
  git_commit* found = nullptr;
  if (git_commit_lookup(&found, repo, git_object_id(peeled_object.get())) < 0) {
    return env_error("cannot read commit '" + spec + "' in " + std::string(shown) + ": " +
                     last_error_message());
  }
  return CommitPtr(found);
}

} // namespace envlock::git
