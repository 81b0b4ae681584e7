#include "diff/lock_source.hpp"

#include "git/git2.hpp"
#include "util/json.hpp"

#include <system_error>

namespace envlock::diff {

namespace fs = std::filesystem;

namespace {

// The repository that contains the current folder (searching upwards, as git does).
Result<git::RepositoryPtr> open_enclosing_repository() {
  git::init_libgit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, ".", 0, nullptr) < 0) {
    return input_error("not inside a git repository (" + git::last_error_message() + ")");
  }
  return git::RepositoryPtr(raw);
}

// `working_lock` relative to the repository's work tree, with '/' separators.
Result<std::string> path_in_repository(git_repository* repo, const fs::path& working_lock) {
  const char* workdir = git_repository_workdir(repo);
  if (workdir == nullptr) {
    return input_error("the git repository here is bare; name the lock as REV:PATH");
  }
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(workdir, ec);
  const fs::path file = fs::weakly_canonical(fs::absolute(working_lock, ec), ec);
  if (ec) {
    return input_error(working_lock.string() + ": " + ec.message());
  }
  const fs::path rel = file.lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") {
    return input_error(working_lock.string() + ": outside the git repository here");
  }
  return rel.generic_string();
}

Result<std::string> read_blob(git_repository* repo, const std::string& spec) {
  git_object* raw = nullptr;
  if (git_revparse_single(&raw, repo, spec.c_str()) < 0) {
    return input_error("'" + spec +
                       "' is not a file and not a revision of the git repository here: " +
                       git::last_error_message());
  }
  const git::ObjectPtr object(raw);
  if (git_object_type(object.get()) != GIT_OBJECT_BLOB) {
    return input_error("'" + spec + "' is not a file in the git repository here");
  }
  const auto* blob = reinterpret_cast<const git_blob*>(object.get()); // NOLINT
  const auto* data = static_cast<const char*>(git_blob_rawcontent(blob));
  const auto size = static_cast<std::size_t>(git_blob_rawsize(blob));
  return std::string(data == nullptr ? "" : data, size);
}

} // namespace

Result<LoadedLock> load_lock_file(const fs::path& path) {
  ENVLOCK_TRY_ASSIGN(lock::Lock l, lock::read_lock(path));
  return LoadedLock{path.string(), std::move(l)};
}

Result<LoadedLock> load_lock_arg(std::string_view arg, const fs::path& working_lock) {
  const std::string text(arg);
  std::error_code ec;
  if (fs::is_regular_file(text, ec)) {
    return load_lock_file(text);
  }
  ENVLOCK_TRY_ASSIGN(const git::RepositoryPtr repo, open_enclosing_repository());
  std::string spec = text;
  if (text.find(':') == std::string::npos) {
    ENVLOCK_TRY_ASSIGN(const std::string rel, path_in_repository(repo.get(), working_lock));
    spec = text + ":" + rel;
  }
  ENVLOCK_TRY_ASSIGN(const std::string content, read_blob(repo.get(), spec));
  ENVLOCK_TRY_ASSIGN(const nlohmann::json value, util::parse_json(content, spec));
  ENVLOCK_TRY_ASSIGN(lock::Lock l, lock::from_json(value, spec));
  return LoadedLock{spec, std::move(l)};
}

} // namespace envlock::diff
