#include "build/context_plan.hpp"

#include "build/recipe.hpp"
#include "git/location.hpp"
#include "git/tree.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

#include <algorithm>
#include <map>
#include <system_error>

namespace envlock::build {

namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t k_git_executable = 0100755;
constexpr std::uint32_t k_git_link = 0120000;
constexpr std::uint32_t k_git_submodule = 0160000;

ContextEntry text_file(std::string path, std::string data, unsigned mode = 0644) {
  return ContextEntry{std::move(path), EntryKind::file, mode, std::move(data), ""};
}

// Reads `shown` (relative to `dir`) and checks it against the sha256 the lock recorded.
Result<std::string> locked_file(const fs::path& dir, const std::string& shown,
                                const std::string& locked_sha256) {
  ENVLOCK_TRY_ASSIGN(std::string data, util::read_file(dir / shown));
  const std::string now = util::sha256_hex(data);
  if (now != locked_sha256) {
    return check_failed(shown + " has changed since it was locked (sha256 " + now +
                        ", the lock has " + locked_sha256 + "); run 'envlock lock'");
  }
  return data;
}

Status add_python(const lock::Lock& lock, const fs::path& dir, const ContextLayout& layout,
                  std::vector<ContextEntry>& out) {
  const std::string project = fs::path(lock.python.project).generic_string();
  const std::string prefix = project == "." ? "" : project + "/";
  ENVLOCK_TRY_ASSIGN(std::string pyproject,
                     locked_file(dir, prefix + "pyproject.toml", lock.python.pyproject_sha256));
  ENVLOCK_TRY_ASSIGN(std::string uv_lock,
                     locked_file(dir, lock.python.uv_lock.path, lock.python.uv_lock.sha256));
  out.push_back(text_file(layout.python + "pyproject.toml", std::move(pyproject)));
  out.push_back(text_file(layout.python + "uv.lock", std::move(uv_lock)));
  return {};
}

// The files of build.context, as the lock recorded them (path and sha256).
Status add_listed_files(const lock::Lock& lock, const fs::path& dir, const ContextLayout& layout,
                        std::vector<ContextEntry>& out) {
  if (!lock.context) {
    return {};
  }
  for (const auto& item : *lock.context) {
    const std::string& path = item.path;
    ENVLOCK_TRY_ASSIGN(std::string data, locked_file(dir, path, item.sha256));
    std::error_code ec;
    const auto perms = fs::status(dir / path, ec).permissions();
    const bool executable = !ec && (perms & fs::perms::owner_exec) != fs::perms::none;
    out.push_back(text_file(layout.files + path, std::move(data), executable ? 0755 : 0644));
  }
  return {};
}

Status add_megatron(const fs::path& repo, const std::string& commit, const ContextLayout& layout,
                    std::vector<ContextEntry>& out) {
  ENVLOCK_TRY_ASSIGN(const auto tree, git::list_tree(repo, commit));
  for (const auto& item : tree) {
    std::string path = layout.megatron + item.path;
    if (item.mode == k_git_submodule) {
      out.push_back(ContextEntry{std::move(path), EntryKind::directory, 0755, "", ""});
    } else if (item.mode == k_git_link) {
      out.push_back(ContextEntry{std::move(path), EntryKind::symlink, 0777, "", item.oid});
    } else {
      const unsigned mode = item.mode == k_git_executable ? 0755 : 0644;
      out.push_back(ContextEntry{std::move(path), EntryKind::file, mode, "", item.oid});
    }
  }
  return {};
}

Status add_verifier(const lock::Lock& lock, const ContextLayout& layout,
                    std::vector<ContextEntry>& out) {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path verifier = exe.parent_path() / "envlock-verify";
  if (ec || !fs::is_regular_file(verifier, ec)) {
    return env_error("envlock-verify not found beside envlock (" + verifier.string() +
                     "); install both from the same build");
  }
  ENVLOCK_TRY_ASSIGN(std::string binary, util::read_file(verifier));
  out.push_back(text_file(layout.envlock + "envlock-verify", std::move(binary), 0755));
  out.push_back(text_file(layout.envlock + "lock.json", util::canonical_json(lock::to_json(lock))));
  return {};
}

} // namespace

fs::path manifest_dir(const lock::Lock& lock, const fs::path& lock_path) {
  const fs::path lock_dir = fs::absolute(lock_path).parent_path();
  return (lock_dir / fs::path(lock.manifest_path).parent_path()).lexically_normal();
}

ContextLayout context_layout(RecipeKind kind) {
  if (kind == RecipeKind::upstream) {
    return ContextLayout{".envlock/Dockerfile", "", "", ".envlock/files/", ".envlock/"};
  }
  return ContextLayout{"Dockerfile", "python/", "megatron-lm/", "files/", "envlock/"};
}

void complete_and_sort(std::vector<ContextEntry>& entries) {
  std::map<std::string, ContextEntry> by_path;
  for (auto& entry : entries) {
    for (std::size_t slash = entry.path.find('/'); slash != std::string::npos;
         slash = entry.path.find('/', slash + 1)) {
      std::string parent = entry.path.substr(0, slash);
      by_path.try_emplace(parent, ContextEntry{parent, EntryKind::directory, 0755, "", ""});
    }
    std::string key = entry.path;
    by_path.insert_or_assign(std::move(key), std::move(entry));
  }
  entries.clear();
  for (auto& [path, entry] : by_path) {
    entries.push_back(std::move(entry));
  }
}

Result<ContextPlan> plan_context(const lock::Lock& lock, const fs::path& lock_path,
                                 const std::string& dockerfile, const ContextOptions& options) {
  const auto pin = lock.sources.find("megatron");
  if (pin == lock.sources.end()) {
    return input_error(lock_path.string() +
                       ": sources.megatron: missing; the build context needs Megatron-LM");
  }
  const fs::path dir = manifest_dir(lock, lock_path);
  const auto& recipe = lock.recipe;
  const ContextLayout layout =
      context_layout(recipe ? RecipeKind::upstream : RecipeKind::template_file);
  ContextPlan plan;
  plan.mtime = options.source_date_epoch.value_or(lock.enroot.source_date_epoch);
  plan.dockerfile = layout.dockerfile;
  ENVLOCK_TRY_ASSIGN(plan.repository, megatron_repository(pin->second, dir, options.megatron_repo));
  // The tree first: with the upstream recipe the project's pyproject.toml and uv.lock replace
  // the tree's own at its root (complete_and_sort keeps the last entry of a path).
  ENVLOCK_TRY(add_megatron(plan.repository, pin->second.commit, layout, plan.entries));
  plan.entries.push_back(text_file(layout.dockerfile, dockerfile));
  ENVLOCK_TRY(add_python(lock, dir, layout, plan.entries));
  ENVLOCK_TRY(add_listed_files(lock, dir, layout, plan.entries));
  if (options.verifier == Verifier::include) {
    ENVLOCK_TRY(add_verifier(lock, layout, plan.entries));
  }
  complete_and_sort(plan.entries);
  return plan;
}

} // namespace envlock::build
