#include "verify/probes/python_env.hpp"

#include "util/fs.hpp"
#include "util/key_value.hpp"
#include "util/strings.hpp"
#include "verify/probes/versions.hpp"

#include <algorithm>
#include <cctype>
#include <optional>
#include <system_error>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t k_metadata_limit = 16 << 20;

constexpr const char* k_default_path =
    "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// "3.12" from "3.12.3", "3.12" or "python3.12"; empty when it is none of those.
std::string python_version_of(std::string_view text) {
  if (text.starts_with("python")) {
    text.remove_prefix(6);
  }
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text.front())) == 0) {
    return {};
  }
  return major_minor(text).value_or("");
}

// Sorted children of `dir` whose names start with `prefix` and that are folders.
std::vector<fs::path> subdirs(const RunContext& context, const fs::path& dir,
                              std::string_view prefix) {
  std::vector<fs::path> out;
  for (const auto& entry : context.list(dir)) {
    if (entry.name.starts_with(prefix) && S_ISDIR(entry.mode)) {
      out.push_back(dir / entry.name);
    }
  }
  return out;
}

void add_existing(const RunContext& context, std::vector<fs::path>& out, const fs::path& dir) {
  if (context.is_dir(dir) && std::find(out.begin(), out.end(), dir) == out.end()) {
    out.push_back(dir);
  }
}

// The image path `path` without its last part ("/opt/venv/bin" -> "/opt/venv").
std::string parent_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos || slash == 0 ? std::string("/") : path.substr(0, slash);
}

std::string joined(const std::string& dir, std::string_view name) {
  return dir == "/" ? "/" + std::string(name) : dir + "/" + std::string(name);
}

// Every pythonX.Y folder's site-packages and dist-packages under the image folder `lib`.
void add_all_versions(const RunContext& context, const std::string& lib, std::string_view leaf,
                      std::vector<fs::path>& out) {
  for (const auto& python : subdirs(context, context.at(lib), "python3.")) {
    add_existing(context, out, python / fs::path(leaf));
  }
}

// Whether /usr's Python is a Debian or Ubuntu one, whose site module reads dist-packages: the
// system says so (/etc/debian_version), or a dist-packages folder of it exists.
bool debian_layout(const RunContext& context, const std::string& version) {
  if (context.is_file(context.at("/etc/debian_version")) ||
      context.is_dir(context.at("/usr/lib/python3/dist-packages"))) {
    return true;
  }
  if (version.empty()) {
    return false;
  }
  return context.is_dir(context.at("/usr/local/lib/python" + version + "/dist-packages")) ||
         context.is_dir(context.at("/usr/lib/python" + version + "/dist-packages"));
}

// The site folders of the Python installed under the image folder `prefix` (no virtual env):
// Debian's layout for a distro Python (/usr, with /usr/lib/python3/dist-packages), the
// lib64/lib site-packages of other distributions, and PREFIX/lib/pythonX.Y/site-packages for a
// Python built into its own prefix (/usr/local, /opt/conda). Without a version, every version's.
std::vector<fs::path> base_sites(const RunContext& context, const std::string& prefix,
                                 const std::string& version) {
  std::vector<fs::path> out;
  const std::string py = "python" + version;
  if (prefix == "/usr" && debian_layout(context, version)) {
    if (version.empty()) {
      add_all_versions(context, "/usr/local/lib", "dist-packages", out);
    } else {
      add_existing(context, out, context.at("/usr/local/lib/" + py + "/dist-packages"));
    }
    add_existing(context, out, context.at("/usr/lib/python3/dist-packages"));
    if (version.empty()) {
      add_all_versions(context, "/usr/lib", "dist-packages", out);
    } else {
      add_existing(context, out, context.at("/usr/lib/" + py + "/dist-packages"));
    }
    return out;
  }
  std::vector<std::string> libs;
  if (prefix == "/usr") {
    libs = {"/usr/local/lib64", "/usr/local/lib", "/usr/lib64", "/usr/lib"};
  } else {
    libs = {joined(prefix, "lib"), joined(prefix, "lib64")};
  }
  for (const auto& lib : libs) {
    if (version.empty()) {
      add_all_versions(context, lib, "site-packages", out);
    } else {
      add_existing(context, out, context.at(lib + "/" + py + "/site-packages"));
    }
  }
  return out;
}

// The folders a checked system without any interpreter found still has: every Python's.
std::vector<fs::path> system_sites(const RunContext& context) {
  std::vector<fs::path> out;
  for (const auto& python : subdirs(context, context.at("/usr/local/lib"), "python3")) {
    add_existing(context, out, python / "site-packages");
    add_existing(context, out, python / "dist-packages");
  }
  add_existing(context, out, context.at("/usr/lib/python3/dist-packages"));
  for (const auto& python : subdirs(context, context.at("/usr/lib"), "python3.")) {
    add_existing(context, out, python / "site-packages");
  }
  return out;
}

struct VenvConfig {
  std::string home;
  std::string version;
  bool include_system = false;
};

VenvConfig read_venv_config(const std::string& text) {
  VenvConfig cfg;
  util::for_each_key_value(text, [&](std::string_view key, std::string_view value) {
    const std::string_view v = util::trim(value);
    if (key == "home") {
      cfg.home = std::string(v);
    } else if (key == "include-system-site-packages") {
      cfg.include_system = util::to_lower(v) == "true";
    } else if ((key == "version" || key == "version_info") && cfg.version.empty()) {
      cfg.version = python_version_of(v);
    }
  });
  return cfg;
}

// The interpreter's real file as an image path, following links inside the checked system.
std::string real_interpreter(const RunContext& context, const std::string& python) {
  return context.shown(context.resolve(context.at(python)));
}

// The environment of the interpreter `python` (an image path), as CPython's site would see it.
PythonEnvironment environment_of(const RunContext& context, const std::string& python,
                                 const std::string& found_by) {
  PythonEnvironment env;
  env.python = python;
  env.found_by = found_by;
  const std::string bin = parent_of(python);
  std::optional<std::string> cfg_dir;
  for (const std::string& dir : {bin, parent_of(bin)}) {
    if (context.is_file(context.at(joined(dir, "pyvenv.cfg")))) {
      cfg_dir = dir;
      break;
    }
  }
  const std::string real = real_interpreter(context, python);
  const std::string real_version = python_version_of(fs::path(real).filename().string());
  if (cfg_dir) {
    env.virtual_env = true;
    const auto text = context.read(context.at(joined(*cfg_dir, "pyvenv.cfg")), 1 << 16);
    const VenvConfig cfg = read_venv_config(text ? *text : std::string());
    env.version = !cfg.version.empty() ? cfg.version : real_version;
    for (const char* lib : {"lib", "lib64"}) {
      const std::string lib_dir = joined(*cfg_dir, lib);
      if (env.version.empty()) {
        add_all_versions(context, lib_dir, "site-packages", env.sites);
      } else {
        add_existing(context, env.sites,
                     context.at(lib_dir + "/python" + env.version + "/site-packages"));
      }
    }
    if (cfg.include_system) {
      const std::string home = cfg.home.empty() ? parent_of(real) : cfg.home;
      env.inherited_sites = base_sites(context, parent_of(home), env.version);
    }
    return env;
  }
  const std::string prefix = parent_of(parent_of(real));
  env.version = real_version;
  if (env.version.empty()) {
    const auto versions = subdirs(context, context.at(joined(prefix, "lib")), "python3.");
    if (versions.size() == 1) {
      env.version = python_version_of(versions.front().filename().string());
    }
  }
  env.sites = base_sites(context, prefix, env.version);
  return env;
}

// python3 in the first folder of PATH that has one (the process's PATH when live, the image's
// /etc/environment PATH offline), as an image path.
std::optional<std::string> python_on_path(const RunContext& context) {
  const std::string path = context.env("PATH").value_or(k_default_path);
  for (const auto& dir : util::split(path, ':')) {
    if (dir.empty() || dir.front() != '/') {
      continue;
    }
    const std::string candidate = joined(dir, "python3");
    if (context.is_file((context.at(candidate)))) {
      return candidate;
    }
  }
  return std::nullopt;
}

// A virtual environment folder's interpreter, when the folder holds an environment.
std::optional<std::string> venv_python(const RunContext& context, const std::string& dir) {
  if (dir.empty() || dir.front() != '/') {
    return std::nullopt;
  }
  const std::string python = joined(dir, "bin/python3");
  if (context.is_file(context.at(joined(dir, "pyvenv.cfg"))) ||
      context.is_file((context.at(python)))) {
    return python;
  }
  return std::nullopt;
}

// What makes two environments the same: the virtual environment's folder, else the real
// interpreter.
std::string identity(const RunContext& context, const PythonEnvironment& env) {
  if (env.virtual_env) {
    return parent_of(parent_of(env.python));
  }
  return env.python.empty() ? std::string() : real_interpreter(context, env.python);
}

std::vector<std::string> shown_list(const RunContext& context, const std::vector<fs::path>& dirs) {
  std::vector<std::string> out;
  out.reserve(dirs.size());
  for (const auto& dir : dirs) {
    out.push_back(context.shown(dir));
  }
  return out;
}

} // namespace

PythonEnvironment find_python_environment(const RunContext& context) {
  const auto& options = context.options();
  if (!options.site_packages.empty()) {
    PythonEnvironment env;
    env.found_by = "--site-packages";
    for (const auto& dir : options.site_packages) {
      add_existing(context, env.sites, context.given_path(dir));
    }
    return env;
  }
  std::vector<std::string> warnings;
  if (!options.resume.python.empty()) {
    const std::string python = options.resume.python.string();
    if (context.is_file((context.at(python)))) {
      return environment_of(context, python, "--python");
    }
    warnings.push_back("--python " + python + ": no such file");
  }
  // The candidates after --python, in order; the first whose interpreter exists and yields a
  // site folder wins.
  std::vector<std::pair<std::string, std::optional<std::string>>> candidates;
  const auto locked = context.lock().build_args.find("UV_PROJECT_ENVIRONMENT");
  if (locked != context.lock().build_args.end()) {
    const auto python = venv_python(context, locked->second);
    if (!python) {
      warnings.push_back("the lock's build_args.UV_PROJECT_ENVIRONMENT (" + locked->second +
                         ") is not a Python environment here");
    }
    candidates.emplace_back("the lock's build_args.UV_PROJECT_ENVIRONMENT", python);
  }
  for (const char* variable : {"UV_PROJECT_ENVIRONMENT", "VIRTUAL_ENV"}) {
    if (const auto value = context.env(variable); value && !value->empty()) {
      candidates.emplace_back(variable, venv_python(context, *value));
    }
  }
  const auto on_path = python_on_path(context);
  candidates.emplace_back("PATH", on_path);
  candidates.emplace_back("/opt/venv", venv_python(context, "/opt/venv"));

  std::optional<PythonEnvironment> chosen;
  for (const auto& [found_by, python] : candidates) {
    if (!python) {
      continue;
    }
    PythonEnvironment env = environment_of(context, *python, found_by);
    if (env.sites.empty()) {
      warnings.push_back(*python + " (" + found_by + "): no site-packages folder found for it");
      continue;
    }
    chosen = std::move(env);
    break;
  }
  if (!chosen) {
    chosen = PythonEnvironment{};
    chosen->found_by = "the system folders";
    chosen->sites = system_sites(context);
  } else if (on_path && chosen->found_by != "PATH") {
    const PythonEnvironment path_env = environment_of(context, *on_path, "PATH");
    if (identity(context, path_env) != identity(context, *chosen)) {
      warnings.push_back("python3 on PATH is " + *on_path + ", another environment than " +
                         chosen->python + " (" + chosen->found_by + "), which was checked");
    }
  }
  chosen->warnings = std::move(warnings);
  return *chosen;
}

std::string describe_environment(const RunContext& context, const PythonEnvironment& env) {
  if (env.python.empty() && env.sites.empty() && env.inherited_sites.empty()) {
    return "python: no interpreter and no site-packages found (looked on PATH, in VIRTUAL_ENV, "
           "/opt/venv and the system folders)";
  }
  const std::string how = env.found_by == "PATH" ? "found on PATH" : "found by " + env.found_by;
  std::string out = "python: " + (env.python.empty() ? std::string("none") : env.python) + " (" +
                    how + "), site-packages: ";
  out += env.sites.empty() ? std::string("none") : util::join(shown_list(context, env.sites), ", ");
  if (!env.inherited_sites.empty()) {
    out += ", inherited: " + util::join(shown_list(context, env.inherited_sites), ", ");
  }
  return out;
}

nlohmann::json environment_json(const RunContext& context, const PythonEnvironment& env) {
  return {{"python", env.python},
          {"found_by", env.found_by},
          {"version", env.version},
          {"virtual_env", env.virtual_env},
          {"sites", shown_list(context, env.sites)},
          {"inherited_sites", shown_list(context, env.inherited_sites)},
          {"warnings", env.warnings}};
}

std::string pep503_name(std::string_view name) {
  std::string out;
  bool in_run = false;
  for (const char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      if (!in_run) {
        out += '-';
      }
      in_run = true;
    } else {
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      in_run = false;
    }
  }
  return out;
}

namespace {

// Core metadata headers stop at the first blank line. A METADATA that is there but cannot be
// read (no regular file, too large) is the distribution's problem.
void read_metadata(const RunContext& context, const fs::path& dist_info, Distribution& dist) {
  const fs::path file = dist_info / "METADATA";
  auto text = context.read(file, k_metadata_limit);
  if (!text) {
    if (!context.is_missing(file)) {
      dist.problem = text.error().message;
    }
    return;
  }
  for (const auto& line : util::split(*text, '\n')) {
    const std::string_view view = util::trim(line);
    if (view.empty()) {
      break;
    }
    if (view.starts_with("Name:")) {
      dist.name = std::string(util::trim(view.substr(5)));
    } else if (view.starts_with("Version:")) {
      dist.version = std::string(util::trim(view.substr(8)));
    }
  }
}

} // namespace

std::map<std::string, Distribution> scan_distributions(const RunContext& context,
                                                       const PythonEnvironment& env) {
  std::map<std::string, Distribution> out;
  auto scan = [&](const fs::path& site, bool inherited) {
    for (const auto& entry : context.list(site)) {
      if (!entry.name.ends_with(".dist-info") || !S_ISDIR(entry.mode)) {
        continue;
      }
      const fs::path dist_info = site / entry.name;
      Distribution dist;
      dist.dist_info = dist_info;
      dist.site = site;
      dist.inherited = inherited;
      read_metadata(context, dist_info, dist);
      const std::string stem = entry.name.substr(0, entry.name.size() - 10);
      const auto dash = stem.find('-');
      if (dist.name.empty()) {
        dist.name = stem.substr(0, dash);
      }
      if (dist.version.empty() && dash != std::string::npos) {
        dist.version = stem.substr(dash + 1);
      }
      dist.key = pep503_name(dist.name);
      out.emplace(dist.key, std::move(dist));
    }
  };
  for (const auto& site : env.sites) {
    scan(site, false);
  }
  for (const auto& site : env.inherited_sites) {
    scan(site, true);
  }
  return out;
}

} // namespace envlock::verify
