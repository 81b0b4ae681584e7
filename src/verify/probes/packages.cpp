#include "util/fs.hpp"
#include "util/strings.hpp"
#include "verify/probes/dist_record.hpp"
#include "verify/probes/probes.hpp"
#include "verify/probes/python_env.hpp"

#include <algorithm>
#include <set>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t k_listed = 10; // names listed in a reason before "..."

// Packages uv installs from a folder: their version is whatever the folder's project says.
bool matched_by_name(const lock::UvPackage& package) {
  const std::string& kind = package.source_kind;
  return kind == "editable" || kind == "virtual" || kind == "path" || kind == "directory" ||
         package.version.empty();
}

std::string list_text(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < k_listed; ++i) {
    out += (i == 0 ? "" : ", ") + items[i];
  }
  if (items.size() > k_listed) {
    out += ", ... (" + std::to_string(items.size() - k_listed) + " more)";
  }
  return out;
}

std::vector<std::string> site_list(const RunContext& context, const std::vector<fs::path>& dirs) {
  std::vector<std::string> out;
  out.reserve(dirs.size());
  for (const auto& dir : dirs) {
    out.push_back(context.shown(dir));
  }
  return out;
}

CheckResult record_check(const std::map<std::string, Distribution>& installed) {
  const std::string id = "packages.record";
  const std::string title = "installed files match RECORD";
  std::vector<RecordFile> files;
  for (const auto& [key, dist] : installed) {
    if (dist.inherited) {
      continue;
    }
    auto text = util::read_file_limited(dist.dist_info / "RECORD", 64 << 20);
    if (!text) {
      continue;
    }
    const std::string dist_name = dist.dist_info.filename().string();
    for (const auto& entry : parse_record(*text)) {
      if (!entry.sha256.empty()) {
        files.push_back({(dist.site / entry.path).lexically_normal(), dist_name + ": " + entry.path,
                         entry.sha256});
      }
    }
  }
  const RecordCheck result = check_record_files(files);
  const std::string found = std::to_string(result.files - result.mismatches.size()) + " of " +
                            std::to_string(result.files) + " files match";
  CheckResult check = passed(id, title, std::to_string(result.files) + " files match", found);
  if (!result.mismatches.empty()) {
    std::vector<std::string> names;
    nlohmann::json listed = nlohmann::json::array();
    for (const auto& mismatch : result.mismatches) {
      names.push_back(mismatch.shown + " (" + mismatch.problem + ")");
      listed.push_back({{"file", mismatch.shown}, {"problem", mismatch.problem}});
    }
    check.outcome = Outcome::fail;
    check.reason = std::to_string(names.size()) + " files differ from RECORD: " + list_text(names);
    check.details["mismatches"] = listed;
  }
  check.figures.push_back({"hashed_bytes", static_cast<double>(result.bytes), "B"});
  return check;
}

// The environment's version, else "3.12" from a site-packages path (.../lib/python3.12/
// site-packages); empty when neither says.
std::string python_version(const PythonEnvironment& env) {
  if (!env.version.empty()) {
    return env.version;
  }
  for (const auto& site : env.sites) {
    for (const auto& part : site) {
      const std::string name = part.string();
      if (name.rfind("python3.", 0) == 0) {
        return name.substr(6);
      }
    }
  }
  return {};
}

CheckResult python_check(const RunContext& context, const PythonEnvironment& env) {
  const std::string id = "packages.python";
  const std::string title = "Python version";
  const std::string& expected = context.lock().expect.python;
  const std::string found = python_version(env);
  if (found.empty()) {
    return expected.empty() ? skipped(id, title, "", "no python3.X site-packages found")
                            : failed(id, title, expected, "", "no python3.X site-packages found");
  }
  CheckResult check = (expected.empty() || expected == found)
                          ? passed(id, title, expected, found)
                          : failed(id, title, expected, found,
                                   "Python " + found + " differs from the lock's " + expected);
  if (!env.python.empty()) {
    check.details["python"] = env.python;
  }
  if (!env.sites.empty()) {
    check.details["site_packages"] = context.shown(env.sites.front());
  }
  return check;
}

} // namespace

std::vector<CheckResult> probe_packages(const RunContext& context) {
  const auto& locked = context.lock().python.uv_lock.packages;
  const PythonEnvironment& env = context.python();
  std::vector<CheckResult> out = {python_check(context, env)};
  if (locked.empty()) {
    const std::string reason = "the lock lists no Python packages";
    out.push_back(skipped("packages.installed", "locked packages installed", "", reason));
    out.push_back(skipped("packages.unexpected", "no packages beyond the lock", "", reason));
    return out;
  }
  const auto installed = scan_distributions(env);
  nlohmann::json where = {{"source", env.found_by},
                          {"site_packages", site_list(context, env.sites)},
                          {"inherited", site_list(context, env.inherited_sites)}};

  std::map<std::string, std::set<std::string>> wanted; // key -> versions ("" = any)
  for (const auto& package : locked) {
    if (package.source_kind == "virtual") {
      wanted.try_emplace(pep503_name(package.name)); // never installed; allowed when present
      continue;
    }
    wanted[pep503_name(package.name)].insert(matched_by_name(package) ? "" : package.version);
  }
  std::vector<std::string> missing;
  std::vector<std::string> mismatched;
  nlohmann::json mismatch_list = nlohmann::json::array();
  for (const auto& [key, versions] : wanted) {
    const auto it = installed.find(key);
    if (versions.empty()) {
      continue; // virtual root
    }
    if (it == installed.end()) {
      missing.push_back(key);
      continue;
    }
    if (versions.count("") == 0 && versions.count(it->second.version) == 0) {
      const std::string lock_versions = util::join({versions.begin(), versions.end()}, " or ");
      mismatched.push_back(key + " " + it->second.version + ", lock " + lock_versions);
      mismatch_list.push_back(
          {{"name", key}, {"installed", it->second.version}, {"locked", lock_versions}});
    }
  }
  const std::size_t required = static_cast<std::size_t>(
      std::count_if(wanted.begin(), wanted.end(), [](const auto& w) { return !w.second.empty(); }));
  const std::string expected = "all " + std::to_string(required) + " installed";
  CheckResult installed_check = passed("packages.installed", "locked packages installed", expected,
                                       std::to_string(required - missing.size()) + " of " +
                                           std::to_string(required) + " installed");
  installed_check.details = where;
  installed_check.details["missing"] = missing;
  installed_check.details["mismatched"] = mismatch_list;
  std::vector<std::string> problems;
  if (!missing.empty()) {
    problems.push_back(std::to_string(missing.size()) + " missing (" + list_text(missing) + ")");
  }
  if (!mismatched.empty()) {
    problems.push_back(std::to_string(mismatched.size()) + " at another version (" +
                       list_text(mismatched) + ")");
  }
  if (!problems.empty()) {
    installed_check.outcome = Outcome::fail;
    installed_check.reason = util::join(problems, "; ");
  }
  out.push_back(std::move(installed_check));

  if (env.sites.empty()) {
    // Nothing was looked at, so nothing can be said to be beyond the lock.
    out.push_back(skipped("packages.unexpected", "no packages beyond the lock", "none",
                          "no python3.X site-packages found"));
    if (context.options().deep) {
      out.push_back(record_check(installed));
    }
    return out;
  }
  std::vector<std::string> unexpected;
  nlohmann::json unexpected_list = nlohmann::json::array();
  std::size_t inherited_extra = 0;
  for (const auto& [key, dist] : installed) {
    if (wanted.count(key) != 0) {
      continue;
    }
    if (dist.inherited) {
      ++inherited_extra;
      continue;
    }
    unexpected.push_back(key + " " + dist.version);
    unexpected_list.push_back(
        {{"name", key}, {"version", dist.version}, {"site", context.shown(dist.site)}});
  }
  CheckResult extra_check = passed("packages.unexpected", "no packages beyond the lock", "none",
                                   std::to_string(unexpected.size()) + " unexpected");
  extra_check.details = {{"unexpected", unexpected_list},
                         {"inherited_not_in_lock", inherited_extra}};
  if (!unexpected.empty()) {
    extra_check.outcome = Outcome::fail;
    extra_check.reason =
        std::to_string(unexpected.size()) + " not in the lock (" + list_text(unexpected) + ")";
  }
  out.push_back(std::move(extra_check));

  if (context.options().deep) {
    out.push_back(record_check(installed));
  }
  return out;
}

} // namespace envlock::verify
