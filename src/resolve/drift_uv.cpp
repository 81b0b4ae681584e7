#include "resolve/drift_uv.hpp"

#include "util/fs.hpp"
#include "util/sha256.hpp"
#include "uv/uv_lock.hpp"

#include <map>
#include <set>

namespace envlock::resolve {

namespace {

// "\"2.5.0\" (registry https://...)", one per version recorded under a name.
std::string describe(const std::vector<lock::UvPackage>* packages) {
  if (packages == nullptr) {
    return "nothing";
  }
  std::string out;
  for (const auto& p : *packages) {
    out += (out.empty() ? "" : ", ") + ("\"" + p.version + "\" (" + p.source_kind) +
           (p.source_location.empty() ? "" : " " + p.source_location) + ")";
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

} // namespace

Status uv_table_drift(const manifest::Manifest& manifest, const lock::Lock& lock,
                      std::vector<std::string>& out) {
  const lock::UvLockPin& pinned = lock.python.uv_lock;
  const auto text = util::read_regular_file(manifest.dir / pinned.path, uv::k_uv_lock_limit);
  if (!text || util::sha256_hex(*text) != pinned.sha256) {
    return {}; // missing or changed: reported as the file's own drift
  }
  ENVLOCK_TRY_ASSIGN(const lock::UvLockPin file, uv::parse_uv_lock(*text, pinned.path));
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
    if (l == nullptr || f == nullptr || *l != *f) {
      out.push_back("drift: python.uv_lock.packages." + name + ": lock has " + describe(l) +
                    ", uv.lock has " + describe(f));
    }
  }
  return {};
}

} // namespace envlock::resolve
