#include "git/git2.hpp"

#include <mutex>
#include <stdexcept>

namespace envlock::git {

void init_libgit2() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (git_libgit2_init() < 0) {
      throw std::runtime_error("libgit2 failed to initialise: " + last_error_message());
    }
    // Objects are read as git itself reads them for `git archive` or a checkout: without hashing
    // each one again (about a sixth of the time of exporting a tree); `git fsck` checks them.
    if (git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0) < 0) {
      throw std::runtime_error("libgit2 refused an option: " + last_error_message());
    }
  });
}

std::string last_error_message() {
  const git_error* e = git_error_last();
  if (e == nullptr || e->message == nullptr) {
    return "unknown libgit2 error";
  }
  return e->message;
}

std::string oid_hex(const git_oid& oid) {
  char buf[GIT_OID_HEXSZ + 1] = {};
  git_oid_tostr(buf, sizeof buf, &oid);
  return buf;
}

} // namespace envlock::git
