// The Python environment of the checked system, read from files only: which site-packages
// folders Python would use, and the distributions (*.dist-info) installed in them.
#pragma once

#include "verify/run_context.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::verify {

struct SitePackages {
  // The environment's own folders: a virtual environment's, or the system's when there is none
  // (or the --site-packages folders). Packages here that the lock lacks are "unexpected".
  std::vector<std::filesystem::path> own;
  // The system folders a virtual environment sees through include-system-site-packages = true.
  std::vector<std::filesystem::path> inherited;
  std::string source; // how they were found: "--site-packages", "VIRTUAL_ENV", "/opt/venv", ...
};

// Finds the folders: --site-packages when given; else the virtual environment of
// UV_PROJECT_ENVIRONMENT, VIRTUAL_ENV or /opt/venv (its lib/python3.*/site-packages, plus the
// system folders when its pyvenv.cfg includes them); else /usr/local/lib/python3.*/{site,dist}-
// packages and /usr/lib/python3/dist-packages. Only existing folders are listed.
SitePackages find_site_packages(const RunContext& context);

struct Distribution {
  std::string name;    // as METADATA writes it
  std::string key;     // PEP 503 normalised name
  std::string version; // METADATA Version (or from the folder name)
  std::filesystem::path dist_info;
  std::filesystem::path site; // the site-packages folder holding it
  bool inherited = false;     // found only in a system folder seen through the virtual env
};

// PEP 503: lowercase, runs of '-', '_' and '.' become one '-'.
std::string pep503_name(std::string_view name);

// The distributions in the folders, keyed by normalised name; a name found in an earlier folder
// hides later ones (Python's import order).
std::map<std::string, Distribution> scan_distributions(const SitePackages& sites);

} // namespace envlock::verify
