#include "diff/lock_source.hpp"

#include "git/git2.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

#include <cctype>
#include <optional>
#include <system_error>

namespace envlock::diff {

namespace fs = std::filesystem;

namespace {

// The repository that contains the current folder, and how messages name it.
struct Repository {
  git::RepositoryPtr repo;
  std::string where; // "the git repository at /home/me/project"
};

// The repository that contains the current folder (searching upwards, as git does). `arg` is the
// argument that is not a file, for the message when there is none.
Result<Repository> open_enclosing_repository(const std::string& arg) {
  git::init_libgit2();
  git_repository* raw = nullptr;
  if (git_repository_open_ext(&raw, ".", 0, nullptr) < 0) {
    return input_error(arg + ": no such file, and not a git revision: the current folder is not "
                             "in a git repository");
  }
  Repository out{git::RepositoryPtr(raw), ""};
  const char* workdir = git_repository_workdir(raw);
  std::string path = workdir != nullptr ? workdir : git_repository_path(raw);
  if (path.size() > 1 && path.back() == '/') {
    path.pop_back();
  }
  out.where = "the git repository at " + path;
  return out;
}

// `working_lock` relative to the repository's work tree, with '/' separators.
Result<std::string> path_in_repository(const Repository& r, const fs::path& working_lock) {
  const char* workdir = git_repository_workdir(r.repo.get());
  if (workdir == nullptr) {
    return input_error(r.where + " is bare; name the lock as REV:PATH");
  }
  std::error_code ec;
  const fs::path root = fs::weakly_canonical(workdir, ec);
  const fs::path file = fs::weakly_canonical(fs::absolute(working_lock, ec), ec);
  if (ec) {
    return input_error(working_lock.string() + ": " + ec.message());
  }
  const fs::path rel = file.lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") {
    return input_error(working_lock.string() + ": outside " + r.where);
  }
  return rel.generic_string();
}

// How many commits back `suffix` ("~3", "^", "~2^") walks along first parents; nothing for a
// suffix that is not only that ("^2", "@{1}", "^{tree}").
std::optional<std::size_t> first_parent_depth(std::string_view suffix) {
  std::size_t depth = 0;
  std::size_t i = 0;
  while (i < suffix.size()) {
    const char op = suffix[i++];
    if (op != '~' && op != '^') {
      return std::nullopt;
    }
    std::size_t n = 0;
    const std::size_t start = i;
    while (i < suffix.size() && std::isdigit(static_cast<unsigned char>(suffix[i])) != 0) {
      n = n * 10 + static_cast<std::size_t>(suffix[i++] - '0');
      if (n > 1000000) {
        return std::nullopt;
      }
    }
    if (i == start) {
      n = 1;
    } else if (op == '^' && n > 1) {
      return std::nullopt; // another parent than the first
    }
    depth += n;
  }
  return depth;
}

// The commit `rev` names, peeled from a tag; nothing when it names none.
std::optional<git::CommitPtr> lookup_commit(git_repository* repo, const std::string& rev) {
  git_object* raw = nullptr;
  if (git_revparse_single(&raw, repo, rev.c_str()) < 0) {
    return std::nullopt;
  }
  const git::ObjectPtr object(raw);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, object.get(), GIT_OBJECT_COMMIT) < 0) {
    return std::nullopt;
  }
  return git::CommitPtr(reinterpret_cast<git_commit*>(peeled)); // NOLINT
}

// How many commits the first-parent line from `start` holds, counting at most `limit`.
std::size_t first_parent_count(const git_commit* start, std::size_t limit) {
  std::size_t count = 1;
  git::CommitPtr current;
  const git_commit* at = start;
  while (count < limit && git_commit_parentcount(at) > 0) {
    git_commit* parent = nullptr;
    if (git_commit_parent(&parent, at, 0) < 0) {
      break;
    }
    current.reset(parent);
    at = current.get();
    ++count;
  }
  return count;
}

// The short names of the repository's branches and tags, for "did you mean".
std::vector<std::string> ref_names(git_repository* repo) {
  git_strarray refs{};
  std::vector<std::string> names;
  if (git_reference_list(&refs, repo) < 0) {
    return names;
  }
  for (std::size_t i = 0; i < refs.count; ++i) {
    std::string name = refs.strings[i];
    for (const std::string prefix : {"refs/heads/", "refs/tags/", "refs/remotes/"}) {
      if (name.starts_with(prefix)) {
        names.push_back(name.substr(prefix.size()));
      }
    }
  }
  git_strarray_dispose(&refs);
  return names;
}

// The commit `rev` names. `shown` is the argument as the user typed it; `lead` says what was not
// found ("no such file, and not a revision of", "no revision 'X' in").
Result<git::CommitPtr> resolve_revision(const Repository& r, const std::string& rev,
                                        const std::string& shown, const std::string& lead) {
  if (auto commit = lookup_commit(r.repo.get(), rev)) {
    return std::move(*commit);
  }
  if (git_repository_head_unborn(r.repo.get()) == 1) {
    return input_error(shown + ": " + r.where + " has no commits yet");
  }
  const auto cut = rev.find_first_of("~^");
  if (cut != std::string::npos && cut > 0) {
    const std::string base = rev.substr(0, cut);
    const auto depth = first_parent_depth(std::string_view(rev).substr(cut));
    const auto start = lookup_commit(r.repo.get(), base);
    if (depth && start) {
      const std::size_t count = first_parent_count(start->get(), *depth + 1);
      if (count <= *depth) {
        return input_error(shown + ": no such commit: " + base + " has only " +
                           std::to_string(count) + (count == 1 ? " commit" : " commits") +
                           " in its first-parent line (" + r.where + ")");
      }
    }
  }
  std::string message = shown + ": " + lead + " " + r.where;
  const std::string word = cut == std::string::npos ? rev : rev.substr(0, cut);
  if (const auto close = util::closest_match(word, ref_names(r.repo.get()))) {
    message += "; did you mean '" + *close + rev.substr(word.size()) + "'?";
  }
  return input_error(message);
}

// The bytes of `path` in `commit`; `spec` (REV:PATH) and `rev` name them in messages.
Result<std::string> read_blob(const Repository& r, const git_commit* commit, const std::string& rev,
                              const std::string& path, const std::string& spec) {
  const std::string in_commit = " in commit " + git::oid_hex(*git_commit_id(commit)).substr(0, 12) +
                                " (" + rev + ") of " + r.where;
  git_tree* raw_tree = nullptr;
  if (git_commit_tree(&raw_tree, commit) < 0) {
    return env_error(spec + ": cannot read the tree" + in_commit + ": " +
                     git::last_error_message());
  }
  const git::TreePtr tree(raw_tree);
  git_tree_entry* raw_entry = nullptr;
  if (git_tree_entry_bypath(&raw_entry, tree.get(), path.c_str()) < 0) {
    // Most often the lock was made but never committed: say how to compare it all the same.
    return input_error(spec + ": no file " + path + in_commit + "; commit the lock (git add " +
                       path + " && git commit) to compare revisions, or name the files: " +
                       "envlock diff OLD.lock.json NEW.lock.json");
  }
  const git::TreeEntryPtr entry(raw_entry);
  if (git_tree_entry_type(entry.get()) != GIT_OBJECT_BLOB) {
    return input_error(spec + ": " + path + " is a folder" + in_commit + ", not a file");
  }
  git_blob* raw_blob = nullptr;
  if (git_blob_lookup(&raw_blob, r.repo.get(), git_tree_entry_id(entry.get())) < 0) {
    return env_error(spec + ": cannot read " + path + in_commit + ": " + git::last_error_message());
  }
  const git::BlobPtr blob(raw_blob);
  const auto* data = static_cast<const char*>(git_blob_rawcontent(blob.get()));
  const auto size = static_cast<std::size_t>(git_blob_rawsize(blob.get()));
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
  ENVLOCK_TRY_ASSIGN(const Repository repo, open_enclosing_repository(text));
  const auto colon = text.find(':');
  std::string rev = text;
  std::string path;
  git::CommitPtr commit;
  if (colon == std::string::npos) {
    ENVLOCK_TRY_ASSIGN(commit,
                       resolve_revision(repo, rev, text, "no such file, and not a revision of"));
    ENVLOCK_TRY_ASSIGN(path, path_in_repository(repo, working_lock));
  } else {
    rev = text.substr(0, colon);
    path = text.substr(colon + 1);
    ENVLOCK_TRY_ASSIGN(commit, resolve_revision(repo, rev, text, "no revision '" + rev + "' in"));
  }
  const std::string spec = rev + ":" + path;
  ENVLOCK_TRY_ASSIGN(const std::string content, read_blob(repo, commit.get(), rev, path, spec));
  ENVLOCK_TRY_ASSIGN(const nlohmann::json value, util::parse_json(content, spec));
  ENVLOCK_TRY_ASSIGN(lock::Lock l, lock::from_json(value, spec));
  return LoadedLock{spec, std::move(l)};
}

} // namespace envlock::diff
