#include "resolve/drift_uv.hpp"

#include "resolve/resolve.hpp"
#include "util/fs.hpp"
#include "util/sha256.hpp"
#include "uv/uv_lock.hpp"
#include "uv/version.hpp"

#include <map>
#include <set>

namespace envlock::resolve {

namespace {

// "\"2.5.0\" (registry https://...)", one per version recorded under a name; with
// `selection`, " not selected" after those uv sync does not install (when the two sides differ
// in that alone, it is what moved).
std::string describe(const std::vector<lock::UvPackage>* packages, bool selection) {
  if (packages == nullptr) {
    return "nothing";
  }
  std::string out;
  for (const auto& p : *packages) {
    out += (out.empty() ? "" : ", ") + ("\"" + p.version + "\" (" + p.source_kind) +
           (p.source_location.empty() ? "" : " " + p.source_location) + ")" +
           (selection && p.not_selected ? " not selected" : "");
  }
  return out;
}

std::map<std::string, std::vector<lock::UvPackage>>
by_name(const std::vector<lock::UvPackage>& packages) {
  std::map<std::string, std::vector<lock::UvPackage>> out;
  for (const auto& p : packages) {
    out[p.name].push_back(p);
  }
  return out;
}

template <typename T>
void compare_field(const std::string& field, const T& in_lock, const T& in_file,
                   std::vector<std::string>& out) {
  if (in_lock != in_file) {
    out.push_back("drift: python.uv_lock." + field + ": lock has " +
                  nlohmann::json(in_lock).dump() + ", uv.lock has " +
                  nlohmann::json(in_file).dump());
  }
}

// As envlock diff words it: added, removed, upgraded or downgraded (one version on each side,
// ordered by PEP 440), else changed.
std::string move_kind(const std::vector<lock::UvPackage>* l,
                      const std::vector<lock::UvPackage>* f) {
  if (l == nullptr) {
    return "added";
  }
  if (f == nullptr) {
    return "removed";
  }
  if (l->size() == 1 && f->size() == 1) {
    if (const auto order = uv::compare_versions(l->front().version, f->front().version)) {
      if (*order == std::strong_ordering::less) {
        return "upgraded";
      }
      if (*order == std::strong_ordering::greater) {
        return "downgraded";
      }
    }
  }
  return "changed";
}

} // namespace

Status uv_table_drift(const manifest::Manifest& manifest, const lock::Lock& lock,
                      std::vector<std::string>& out, std::vector<PackageMove>& moves) {
  const lock::UvLockPin& pinned = lock.python.uv_lock;
  const std::string path = project_file(manifest, "uv.lock");
  const auto text = util::read_regular_file(manifest.dir / path, uv::k_uv_lock_limit);
  if (!text) {
    return {}; // missing: reported as the file's own drift
  }
  ENVLOCK_TRY_ASSIGN(lock::UvLockPin file, uv::parse_uv_lock(*text, path));
  file.path = path;
  ENVLOCK_TRY(check_python_inputs(manifest, file, *text));
  ENVLOCK_TRY(mark_not_selected(manifest, file, *text));
  if (path != pinned.path) {
    return {}; // another file: python.uv_lock.path drifted, its packages are not comparable
  }
  const bool changed = util::sha256_hex(*text) != pinned.sha256;
  compare_field("version", pinned.version, file.version, out);
  compare_field("revision", pinned.revision, file.revision, out);
  compare_field("requires_python", pinned.requires_python, file.requires_python, out);
  const auto a = by_name(pinned.packages);
  const auto b = by_name(file.packages);
  std::set<std::string> names;
  for (const auto& [name, v] : a) {
    names.insert(name);
  }
  for (const auto& [name, v] : b) {
    names.insert(name);
  }
  for (const auto& name : names) {
    const auto in_lock = a.find(name);
    const auto in_file = b.find(name);
    const auto* l = in_lock == a.end() ? nullptr : &in_lock->second;
    const auto* f = in_file == b.end() ? nullptr : &in_file->second;
    if (l != nullptr && f != nullptr && *l == *f) {
      continue;
    }
    // Whether the sides differ in what uv sync selects, versions and sources aside.
    bool selection = false;
    if (l != nullptr && f != nullptr && l->size() == f->size()) {
      selection = true;
      for (std::size_t i = 0; i < l->size(); ++i) {
        lock::UvPackage same = (*l)[i];
        same.not_selected = (*f)[i].not_selected;
        selection = selection && same == (*f)[i];
      }
    }
    const std::string sides =
        "lock has " + describe(l, selection) + ", uv.lock has " + describe(f, selection);
    if (!changed) {
      out.push_back("drift: python.uv_lock.packages." + name + ": " + sides);
      continue;
    }
    const std::string kind = move_kind(l, f);
    out.push_back("drift: python.uv_lock.packages." + name + ": " + kind + ": " + sides);
    moves.push_back({name, kind, l == nullptr ? std::vector<lock::UvPackage>() : *l,
                     f == nullptr ? std::vector<lock::UvPackage>() : *f});
  }
  return {};
}

} // namespace envlock::resolve
