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

// The first k_listed of `items`, then "... (N more)" of `total` (items.size() when 0).
std::string list_text(const std::vector<std::string>& items, std::size_t total = 0) {
  total = std::max(total, items.size());
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < k_listed; ++i) {
    out += (i == 0 ? "" : ", ") + items[i];
  }
  if (total > k_listed) {
    out += ", ... (" + std::to_string(total - k_listed) + " more)";
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

// What a RECORD file leads to: its listed files, or why it is not checked (no regular file,
// more than one RECORD may claim).
Result<std::vector<RecordEntry>> read_record(const RunContext& context, const fs::path& record) {
  ENVLOCK_TRY_ASSIGN(const std::string text, context.read(record, k_record_max_bytes));
  const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  if (lines > k_record_max_lines) {
    return input_error(context.shown(record) + ": more than " + std::to_string(k_record_max_lines) +
                       " lines");
  }
  return parse_record(text);
}

// The file a RECORD line names: relative to the site-packages folder ("../../bin/x" too), or an
// absolute path of the checked system; resolved inside the root either way.
fs::path record_target(const RunContext& context, const fs::path& site, const std::string& path) {
  if (!path.empty() && path.front() == '/') {
    return context.at(path);
  }
  return context.at(context.shown(site) + "/" + path);
}

CheckResult record_check(const RunContext& context,
                         const std::map<std::string, Distribution>& installed) {
  const std::string id = "packages.record";
  const std::string title = "installed files match RECORD";
  std::vector<RecordFile> files;
  std::vector<std::string> not_checked;
  for (const auto& [key, dist] : installed) {
    if (dist.inherited) {
      continue;
    }
    const fs::path record = dist.dist_info / "RECORD";
    auto entries = read_record(context, record);
    if (!entries) {
      if (!context.is_missing(record)) {
        not_checked.push_back(entries.error().message);
      }
      continue;
    }
    const std::string dist_name = dist.dist_info.filename().string();
    for (const auto& entry : *entries) {
      if (!entry.sha256.empty()) {
        files.push_back({record_target(context, dist.site, entry.path),
                         dist_name + ": " + entry.path, entry.sha256});
      }
    }
  }
  const auto open = [&context](const fs::path& path) -> Result<util::Fd> {
    auto fd = context.open_regular(path);
    if (fd) {
      return fd;
    }
    if (context.is_missing(path)) {
      return input_error("missing");
    }
    std::string problem = fd.error().message;
    const std::string prefix = context.shown(path) + ": ";
    if (problem.starts_with(prefix)) {
      problem.erase(0, prefix.size());
    }
    return input_error(problem);
  };
  const RecordCheck result = check_record_files(files, open);
  const std::string found = std::to_string(result.files - result.mismatches.size()) + " of " +
                            std::to_string(result.files) + " files match";
  CheckResult check = passed(id, title, std::to_string(result.files) + " files match", found);
  std::vector<std::string> problems;
  if (!not_checked.empty()) {
    problems.push_back(std::to_string(not_checked.size()) +
                       " RECORD files not checked: " + list_text(not_checked));
    check.details["records_not_checked"] = not_checked;
  }
  if (!result.mismatches.empty()) {
    std::vector<std::string> names;
    nlohmann::json listed = nlohmann::json::array();
    for (const auto& mismatch : result.mismatches) {
      if (names.size() < k_listed) {
        names.push_back(mismatch.shown + " (" + mismatch.problem + ")");
      }
      if (listed.size() < k_record_listed_mismatches) {
        listed.push_back({{"file", mismatch.shown}, {"problem", mismatch.problem}});
      }
    }
    problems.push_back(std::to_string(result.mismatches.size()) +
                       " files differ from RECORD: " + list_text(names, result.mismatches.size()));
    check.details["mismatches"] = listed;
    check.details["mismatches_not_listed"] = result.mismatches.size() - listed.size();
  }
  if (!problems.empty()) {
    check.outcome = Outcome::fail;
    check.reason = util::join(problems, "; ");
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
  const auto installed = scan_distributions(context, env);
  nlohmann::json where = {{"source", env.found_by},
                          {"site_packages", site_list(context, env.sites)},
                          {"inherited", site_list(context, env.inherited_sites)}};

  std::map<std::string, std::set<std::string>> wanted; // key -> versions ("" = any)
  std::set<std::string> not_selected; // locked, but not installed by the lock's uv sync
  for (const auto& package : locked) {
    if (package.not_selected) {
      not_selected.insert(pep503_name(package.name));
      continue;
    }
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
  for (const auto& [key, versions] : wanted) {
    not_selected.erase(key); // another version of the name is selected
  }
  const std::size_t required = static_cast<std::size_t>(
      std::count_if(wanted.begin(), wanted.end(), [](const auto& w) { return !w.second.empty(); }));
  const std::string expected = "all " + std::to_string(required) + " installed";
  std::string found =
      std::to_string(required - missing.size()) + " of " + std::to_string(required) + " installed";
  if (!not_selected.empty()) {
    const std::vector<std::string> names(not_selected.begin(), not_selected.end());
    found += "; " + std::to_string(names.size()) +
             " locked but not selected by the lock's sync_args and platform (" + list_text(names) +
             ")";
  }
  CheckResult installed_check =
      passed("packages.installed", "locked packages installed", expected, found);
  installed_check.details = where;
  if (!not_selected.empty()) {
    installed_check.details["not_selected"] =
        std::vector<std::string>(not_selected.begin(), not_selected.end());
  }
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
  // A METADATA that is there but cannot be read leaves the version to the folder's name, which
  // is not what Python would report: the distribution is named, and the check fails.
  std::vector<std::string> unreadable;
  for (const auto& [key, dist] : installed) {
    if (!dist.problem.empty()) {
      unreadable.push_back(dist.problem);
    }
  }
  if (!unreadable.empty()) {
    installed_check.details["unreadable"] = unreadable;
    problems.push_back(std::to_string(unreadable.size()) + " unreadable (" + list_text(unreadable) +
                       ")");
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
      out.push_back(record_check(context, installed));
    }
    return out;
  }
  std::vector<std::string> unexpected;
  nlohmann::json unexpected_list = nlohmann::json::array();
  std::size_t inherited_extra = 0;
  for (const auto& [key, dist] : installed) {
    if (wanted.count(key) != 0 || not_selected.count(key) != 0) {
      continue; // in the lock (a package not selected is allowed when present, as a virtual one)
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
    out.push_back(record_check(context, installed));
  }
  return out;
}

} // namespace envlock::verify
