// The Python environment of the checked system, found the way Python itself would find it and
// read from files only (nothing is executed): which interpreter, which site-packages folders, and
// the distributions (*.dist-info) installed in them. Every check that looks at Python (packages,
// PyTorch, the NCCL PyTorch loads, cuDNN, Megatron-LM, the resume check's interpreter) uses the
// one environment found here.
#pragma once

#include "verify/run_context.hpp"

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::verify {

struct PythonEnvironment {
  // The interpreter as found, a path as seen inside the checked system (a virtual environment's
  // bin/python3 stays that, not the file its link points to); empty when only folders were found.
  std::string python;
  // How it was found: "--python", "--site-packages", "the lock's
  // build_args.UV_PROJECT_ENVIRONMENT", "UV_PROJECT_ENVIRONMENT", "VIRTUAL_ENV", "PATH",
  // "/opt/venv", "the system folders".
  std::string found_by;
  std::string version;      // "3.12" when known (pyvenv.cfg, the interpreter's name, lib/)
  bool virtual_env = false; // a pyvenv.cfg beside the interpreter's bin/
  // The environment's own folders (host paths): a virtual environment's site-packages, or the
  // interpreter's site folders (Debian's dist-packages for a distro Python). Packages here that
  // the lock lacks are "unexpected".
  std::vector<std::filesystem::path> sites;
  // The system folders a virtual environment sees through include-system-site-packages = true.
  std::vector<std::filesystem::path> inherited_sites;
  // Where candidates disagree: the lock's environment is missing, or is not the python3 on PATH.
  std::vector<std::string> warnings;
};

// Finds the environment; the first candidate that exists wins: --python FILE or --site-packages
// DIR; the lock's build_args.UV_PROJECT_ENVIRONMENT; the UV_PROJECT_ENVIRONMENT and VIRTUAL_ENV
// variables (the process's when live, the image's /etc/environment offline); python3 on PATH
// (likewise); /opt/venv; the system folders. From an interpreter, the environment is derived as
// CPython's site module does: pyvenv.cfg beside its bin/ (home, include-system-site-packages,
// version) makes it a virtual environment with lib/pythonX.Y/site-packages; otherwise the real
// interpreter's prefix gives its site folders. Only existing folders are listed.
PythonEnvironment find_python_environment(const RunContext& context);

// "python: /opt/venv/bin/python3 (found on PATH), site-packages: /opt/venv/lib/python3.12/
// site-packages" (+ ", inherited: ..."), paths as seen inside the checked system.
std::string describe_environment(const RunContext& context, const PythonEnvironment& env);

// The report's details.environment: python, found_by, version, virtual_env, sites,
// inherited_sites, warnings.
nlohmann::json environment_json(const RunContext& context, const PythonEnvironment& env);

struct Distribution {
  std::string name;    // as METADATA writes it
  std::string key;     // PEP 503 normalised name
  std::string version; // METADATA Version (or from the folder name)
  std::filesystem::path dist_info;
  std::filesystem::path site; // the site-packages folder holding it
  bool inherited = false;     // found only in a system folder seen through the virtual env
  // Why its METADATA could not be read although it is there ("PATH: is a FIFO, not a regular
  // file", "PATH: larger than N bytes"); empty when it was read or is missing.
  std::string problem;
};

// PEP 503: lowercase, runs of '-', '_' and '.' become one '-'.
std::string pep503_name(std::string_view name);

// The distributions in the folders, keyed by normalised name; a name found in an earlier folder
// hides later ones (Python's import order).
// Every path is reached through `context` (inside the root, offline).
std::map<std::string, Distribution> scan_distributions(const RunContext& context,
                                                       const PythonEnvironment& env);

} // namespace envlock::verify
