#include "git/tree.hpp"

#include "git/git2.hpp"
#include "git/repository.hpp"

#include <algorithm>

namespace envlock::git {

namespace {

Result<TreePtr> commit_tree(git_commit* commit) {
  git_tree* raw = nullptr;
  if (git_commit_tree(&raw, commit) < 0) {
    return env_error("cannot read the tree of commit " + oid_hex(*git_commit_id(commit)) + ": " +
                     last_error_message());
  }
  return TreePtr(raw);
}

int collect_entry(const char* root, const git_tree_entry* entry, void* payload) {
  auto* out = static_cast<std::vector<TreeEntry>*>(payload);
  const git_object_t type = git_tree_entry_type(entry);
  if (type == GIT_OBJECT_TREE) {
    return 0;
  }
  out->push_back(TreeEntry{std::string(root) + git_tree_entry_name(entry),
                           static_cast<std::uint32_t>(git_tree_entry_filemode(entry)),
                           oid_hex(*git_tree_entry_id(entry))});
  return 0;
}

} // namespace

Result<std::string> read_blob(const std::filesystem::path& repo, std::string_view commit,
                              std::string_view path) {
  const std::string shown = repo.string();
  ENVLOCK_TRY_ASSIGN(const RepositoryPtr repository, open_repository(repo, shown));
  ENVLOCK_TRY_ASSIGN(const CommitPtr found, lookup_commit(repository.get(), commit, shown));
  ENVLOCK_TRY_ASSIGN(const TreePtr tree, commit_tree(found.get()));
  const std::string file(path);
  git_tree_entry* raw_entry = nullptr;
  if (git_tree_entry_bypath(&raw_entry, tree.get(), file.c_str()) < 0) {
    return input_error(file + " not found at commit " + std::string(commit));
  }
  const TreeEntryPtr entry(raw_entry);
  if (git_tree_entry_type(entry.get()) != GIT_OBJECT_BLOB) {
    return input_error(file + " at commit " + std::string(commit) + " is not a file");
  }
  git_blob* raw_blob = nullptr;
  if (git_blob_lookup(&raw_blob, repository.get(), git_tree_entry_id(entry.get())) < 0) {
    return env_error("cannot read " + file + " at commit " + std::string(commit) + ": " +
                     last_error_message());
  }
  const BlobPtr blob(raw_blob);
  const auto* data = static_cast<const char*>(git_blob_rawcontent(blob.get()));
  return std::string(data, static_cast<std::size_t>(git_blob_rawsize(blob.get())));
}

Result<std::vector<TreeEntry>> list_tree(const std::filesystem::path& repo,
                                         std::string_view commit) {
  const std::string shown = repo.string();
  ENVLOCK_TRY_ASSIGN(const RepositoryPtr repository, open_repository(repo, shown));
  ENVLOCK_TRY_ASSIGN(const CommitPtr found, lookup_commit(repository.get(), commit, shown));
  ENVLOCK_TRY_ASSIGN(const TreePtr tree, commit_tree(found.get()));
  std::vector<TreeEntry> entries;
  if (git_tree_walk(tree.get(), GIT_TREEWALK_PRE, collect_entry, &entries) < 0) {
    return env_error("cannot walk the tree of commit " + std::string(commit) + ": " +
                     last_error_message());
  }
  std::sort(entries.begin(), entries.end(),
            [](const TreeEntry& a, const TreeEntry& b) { return a.path < b.path; });
  return entries;
}

} // namespace envlock::git
