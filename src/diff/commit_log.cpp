#include "diff/commit_log.hpp"

#include "git/git2.hpp"
#include "git/location.hpp"

#include <memory>
#include <system_error>

namespace envlock::diff {

namespace fs = std::filesystem;

namespace {

using RevwalkPtr = std::unique_ptr<git_revwalk, git::Deleter<git_revwalk, git_revwalk_free>>;

// The commits reachable from `from` but not from `hide`, newest first; nothing on a libgit2 error.
std::optional<std::vector<git_oid>> walk(git_repository* repo, const git_oid& from,
                                         const git_oid& hide) {
  git_revwalk* raw = nullptr;
  if (git_revwalk_new(&raw, repo) < 0) {
    return std::nullopt;
  }
  const RevwalkPtr walker(raw);
  if (git_revwalk_sorting(walker.get(), GIT_SORT_TOPOLOGICAL | GIT_SORT_TIME) < 0 ||
      git_revwalk_push(walker.get(), &from) < 0 || git_revwalk_hide(walker.get(), &hide) < 0) {
    return std::nullopt;
  }
  std::vector<git_oid> out;
  git_oid oid;
  int rc = 0;
  while ((rc = git_revwalk_next(&oid, walker.get())) == 0) {
    out.push_back(oid);
  }
  if (rc != GIT_ITEROVER) {
    return std::nullopt;
  }
  return out;
}

std::string subject_of(git_repository* repo, const git_oid& oid) {
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, repo, &oid) < 0) {
    return "(unreadable commit)";
  }
  const git::CommitPtr commit(raw);
  const char* summary = git_commit_summary(commit.get());
  return summary == nullptr ? "" : summary;
}

} // namespace

CommitLog read_commit_log(const std::string& source, const fs::path& repo_path,
                          const std::string& old_commit, const std::string& new_commit,
                          std::size_t limit) {
  CommitLog log;
  log.source = source;
  git::init_libgit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, repo_path.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) <
      0) {
    log.unavailable = "no git repository at " + repo_path.string();
    return log;
  }
  const git::RepositoryPtr repo(raw);
  git_oid a;
  git_oid b;
  if (git_oid_fromstr(&a, old_commit.c_str()) < 0 || git_oid_fromstr(&b, new_commit.c_str()) < 0) {
    log.unavailable = "the commits are not full hex ids";
    return log;
  }
  const auto ahead = walk(repo.get(), b, a);
  const auto behind = walk(repo.get(), a, b);
  if (!ahead || !behind) {
    log.unavailable = "commit " + (ahead ? old_commit : new_commit).substr(0, 12) +
                      " not found in " + repo_path.string();
    return log;
  }
  const std::vector<git_oid>* shown = &*ahead;
  if (ahead->empty() || behind->empty()) {
    log.direction = ahead->empty() ? "behind" : "ahead";
    shown = ahead->empty() ? &*behind : &*ahead;
  } else {
    log.direction = "diverged";
  }
  log.count = shown->size();
  for (std::size_t i = 0; i < shown->size() && i < limit; ++i) {
    log.commits.emplace_back(git::oid_hex((*shown)[i]).substr(0, 12),
                             subject_of(repo.get(), (*shown)[i]));
  }
  return log;
}

void add_commit_logs(LockDiff& diff, const lock::Lock& old_lock, const lock::Lock& new_lock,
                     const fs::path& megatron_repo) {
  for (const auto& [name, pin] : new_lock.sources) {
    const auto it = old_lock.sources.find(name);
    if (it == old_lock.sources.end() || it->second.commit == pin.commit) {
      continue;
    }
    fs::path repo;
    if (name == "megatron" && !megatron_repo.empty()) {
      repo = megatron_repo;
    } else if (git::classify_location(pin.git) == git::LocationKind::local_path) {
      repo = git::local_path_of(pin.git);
    } else {
      CommitLog log;
      log.source = name;
      log.unavailable =
          name == "megatron" ? "no local clone; give --megatron-repo PATH" : "no local clone";
      diff.commit_logs.push_back(std::move(log));
      continue;
    }
    diff.commit_logs.push_back(read_commit_log(name, repo, it->second.commit, pin.commit));
  }
}

} // namespace envlock::diff
