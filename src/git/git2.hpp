// RAII for libgit2: owning pointers for its objects, one-time initialisation, and its last error
// as text. Only src/git/*.cpp include this header; libgit2's C header stays out of public headers.
#pragma once

#include <git2.h>
#include <memory>
#include <string>

namespace envlock::git {

// Initialises libgit2 once per process; later calls do nothing. libgit2 stays initialised until
// the process exits (its global state is then released by the operating system).
void init_libgit2();

// libgit2's message for the last failed call on this thread, or "unknown libgit2 error".
std::string last_error_message();

template <typename T, void (*Free)(T*)> struct Deleter {
  void operator()(T* p) const { Free(p); }
};

using RepositoryPtr = std::unique_ptr<git_repository, Deleter<git_repository, git_repository_free>>;
using RemotePtr = std::unique_ptr<git_remote, Deleter<git_remote, git_remote_free>>;
using ReferencePtr = std::unique_ptr<git_reference, Deleter<git_reference, git_reference_free>>;
using ObjectPtr = std::unique_ptr<git_object, Deleter<git_object, git_object_free>>;
using CommitPtr = std::unique_ptr<git_commit, Deleter<git_commit, git_commit_free>>;
using TreePtr = std::unique_ptr<git_tree, Deleter<git_tree, git_tree_free>>;
using TreeEntryPtr = std::unique_ptr<git_tree_entry, Deleter<git_tree_entry, git_tree_entry_free>>;
using BlobPtr = std::unique_ptr<git_blob, Deleter<git_blob, git_blob_free>>;

// The 40-hex text of an object id.
std::string oid_hex(const git_oid& oid);

} // namespace envlock::git
