// Where the resume check finds its Python and its trainer (share/resume/envlock_resume.py).
#pragma once

#include "util/result.hpp"
#include "verify/options.hpp"

#include <filesystem>
#include <vector>

namespace envlock::verify {

// The Python to train with: --python (an input error when it does not exist); else the
// interpreter of the checked environment (`environment`, from find_python_environment: the
// lock's UV_PROJECT_ENVIRONMENT, UV_PROJECT_ENVIRONMENT, VIRTUAL_ENV, python3 on PATH,
// /opt/venv); else python3 on PATH. An environment error when none exists: "resume check: no
// python3 found (looked for the checked environment's interpreter and on PATH; use --python)".
Result<std::filesystem::path> find_resume_python(const ResumeOptions& options,
                                                 const std::filesystem::path& environment);

// The folders searched for envlock_resume.py, in order: the executable's own folder, then
// ../share/envlock/resume beside it (the installed layout), then ../share/resume (a build folder
// inside the source tree).
std::vector<std::filesystem::path> resume_script_dirs();

// The trainer: --resume-script (an input error when it does not exist), else the first
// envlock_resume.py in resume_script_dirs(), else the embedded copy written to `work_dir`.
Result<std::filesystem::path> find_resume_script(const ResumeOptions& options,
                                                 const std::filesystem::path& work_dir);

} // namespace envlock::verify
