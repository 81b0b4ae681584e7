#include "git/ref.hpp"

#include "git/git2.hpp"
#include "git/location.hpp"
#include "git/repository.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <optional>
#include <vector>

namespace envlock::git {

namespace {

struct RemoteHead {
  std::string name;
  std::string oid;
};

constexpr std::size_t k_tags_shown = 30;

// "; tags of LOCATION: a, b and 3 more" (sorted, as the registry's 404 lists an image's tags),
// or "; LOCATION has no tags".
std::string tags_hint(std::vector<std::string> tags, std::string_view location) {
  std::sort(tags.begin(), tags.end());
  tags.erase(std::unique(tags.begin(), tags.end()), tags.end());
  if (tags.empty()) {
    return "; " + redact_location(location) + " has no tags";
  }
  const std::size_t more = tags.size() > k_tags_shown ? tags.size() - k_tags_shown : 0;
  tags.resize(tags.size() - more);
  return "; tags of " + redact_location(location) + ": " + util::join(tags, ", ") +
         (more > 0 ? " and " + std::to_string(more) + " more" : "");
}

Error not_found(std::string_view ref, std::string_view location,
                const std::vector<std::string>& tags) {
  return input_error("ref '" + std::string(ref) + "' not found in " + redact_location(location) +
                     tags_hint(tags, location));
}

// The tags of a local repository; none when they cannot be listed.
std::vector<std::string> local_tags(git_repository* repo) {
  git_strarray names{};
  if (git_tag_list(&names, repo) < 0) {
    return {};
  }
  std::vector<std::string> out(names.strings, names.strings + names.count);
  git_strarray_dispose(&names);
  return out;
}

bool is_abbreviated_commit(std::string_view ref) {
  return ref.size() >= 4 && ref.size() < GIT_OID_HEXSZ && util::is_hex(ref);
}

// Peels `name` to a commit id; nothing when the reference does not exist.
Result<std::optional<std::string>> peel_reference(git_repository* repo, const std::string& name) {
  git_reference* raw = nullptr;
  const int rc = git_reference_lookup(&raw, repo, name.c_str());
  if (rc == GIT_ENOTFOUND) {
    return std::optional<std::string>{};
  }
  if (rc < 0) {
    return env_error("cannot read " + name + ": " + last_error_message());
  }
  const ReferencePtr reference(raw);
  git_object* peeled = nullptr;
  if (git_reference_peel(&peeled, reference.get(), GIT_OBJECT_COMMIT) < 0) {
    return env_error("cannot peel " + name + " to a commit: " + last_error_message());
  }
  const ObjectPtr object(peeled);
  return std::optional<std::string>{oid_hex(*git_object_id(object.get()))};
}

Result<std::string> resolve_local(std::string_view location, std::string_view ref,
                                  const std::filesystem::path& base_dir) {
  ENVLOCK_TRY_ASSIGN(const RepositoryPtr repo,
                     open_repository(base_dir / local_path_of(location), location));
  for (const std::string prefix : {"refs/tags/", "refs/heads/"}) {
    ENVLOCK_TRY_ASSIGN(const auto commit, peel_reference(repo.get(), prefix + std::string(ref)));
    if (commit) {
      return *commit;
    }
  }
  if (!is_full_commit(ref) && !is_abbreviated_commit(ref)) {
    return not_found(ref, location, local_tags(repo.get()));
  }
  git_oid oid{};
  if (git_oid_fromstrn(&oid, ref.data(), ref.size()) < 0) {
    return not_found(ref, location, local_tags(repo.get()));
  }
  git_object* raw = nullptr;
  const int rc = git_object_lookup_prefix(&raw, repo.get(), &oid, ref.size(), GIT_OBJECT_ANY);
  if (rc == GIT_EAMBIGUOUS) {
    return input_error("ref '" + std::string(ref) + "' is ambiguous in " + std::string(location) +
                       "; give more hex digits");
  }
  if (rc < 0) {
    return not_found(ref, location, local_tags(repo.get()));
  }
  const ObjectPtr object(raw);
  git_object* peeled = nullptr;
  if (git_object_peel(&peeled, object.get(), GIT_OBJECT_COMMIT) < 0) {
    return input_error("ref '" + std::string(ref) + "' in " + std::string(location) +
                       " is not a commit");
  }
  const ObjectPtr commit(peeled);
  return oid_hex(*git_object_id(commit.get()));
}

Result<std::vector<RemoteHead>> list_remote(std::string_view url) {
  const std::string shown = redact_location(url);
  const std::string url_text(url);
  auto fail = [&](const char* what) {
    const std::string reason = util::replace_all(last_error_message(), url_text, shown);
    return env_error(std::string(what) + " " + shown + ": " + reason);
  };
  git_remote* raw = nullptr;
  // A detached remote needs no local repository: only the refs are listed.
  if (git_remote_create_detached(&raw, url_text.c_str()) < 0) {
    return input_error("invalid git URL " + shown + ": " +
                       util::replace_all(last_error_message(), url_text, shown));
  }
  const RemotePtr remote(raw);
  git_remote_callbacks callbacks{};
  if (git_remote_init_callbacks(&callbacks, GIT_REMOTE_CALLBACKS_VERSION) < 0) {
    return fail("cannot list the refs of");
  }
  if (git_remote_connect(remote.get(), GIT_DIRECTION_FETCH, &callbacks, nullptr, nullptr) < 0) {
    return fail("cannot list the refs of");
  }
  const git_remote_head** heads = nullptr;
  std::size_t count = 0;
  if (git_remote_ls(&heads, &count, remote.get()) < 0) {
    return fail("cannot list the refs of");
  }
  std::vector<RemoteHead> out;
  out.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    out.push_back(RemoteHead{heads[i]->name, oid_hex(heads[i]->oid)});
  }
  if (git_remote_disconnect(remote.get()) < 0) {
    return fail("cannot disconnect from");
  }
  return out;
}

std::vector<std::string> remote_tags(const std::vector<RemoteHead>& heads) {
  constexpr std::string_view k_prefix = "refs/tags/";
  std::vector<std::string> out;
  for (const auto& head : heads) {
    if (head.name.starts_with(k_prefix)) {
      std::string name = head.name.substr(k_prefix.size());
      if (name.ends_with("^{}")) {
        name.resize(name.size() - 3);
      }
      out.push_back(std::move(name));
    }
  }
  return out;
}

Result<std::string> resolve_remote(std::string_view url, std::string_view ref) {
  if (is_full_commit(ref)) {
    return util::to_lower(ref);
  }
  ENVLOCK_TRY_ASSIGN(const auto heads, list_remote(url));
  const std::string r(ref);
  for (const std::string& wanted :
       {"refs/tags/" + r + "^{}", "refs/tags/" + r, "refs/heads/" + r}) {
    for (const auto& head : heads) {
      if (head.name == wanted) {
        return head.oid;
      }
    }
  }
  if (is_abbreviated_commit(ref)) {
    std::optional<std::string> match;
    const std::string prefix = util::to_lower(ref);
    for (const auto& head : heads) {
      if (head.oid.starts_with(prefix) && match != head.oid) {
        if (match) {
          return input_error("ref '" + r + "' is ambiguous in " + redact_location(url) +
                             "; give more hex digits");
        }
        match = head.oid;
      }
    }
    if (match) {
      return *match;
    }
  }
  return not_found(ref, url, remote_tags(heads));
}

} // namespace

bool is_full_commit(std::string_view text) {
  return text.size() == GIT_OID_HEXSZ && util::is_hex(text);
}

Result<std::string> resolve_commit(std::string_view location, std::string_view ref,
                                   const std::filesystem::path& base_dir) {
  init_libgit2();
  if (ref.empty()) {
    return input_error("empty ref for " + redact_location(location));
  }
  if (classify_location(location) == LocationKind::remote_url) {
    return resolve_remote(location, ref);
  }
  return resolve_local(location, ref, base_dir);
}

} // namespace envlock::git
