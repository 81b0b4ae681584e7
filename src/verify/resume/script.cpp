#include "verify/resume/script.hpp"

#include "util/fs.hpp"
#include "util/process.hpp"

namespace envlock::verify {

namespace generated {
extern const char* const k_resume_script;
} // namespace generated

namespace fs = std::filesystem;

namespace {

constexpr const char* k_script_name = "envlock_resume.py";

bool is_script_file(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error);
}

} // namespace

Result<fs::path> find_resume_python(const ResumeOptions& options, const fs::path& environment) {
  if (!options.python.empty()) {
    if (!is_script_file(options.python)) {
      return input_error("--python " + options.python.string() + ": no such file");
    }
    return options.python;
  }
  if (!environment.empty() && is_script_file(environment)) {
    return environment;
  }
  if (auto found = util::find_program("python3")) {
    return *found;
  }
  return env_error("resume check: no python3 found (looked for the checked environment's "
                   "interpreter and on PATH; use --python)");
}

std::vector<fs::path> resume_script_dirs() {
  std::error_code error;
  const fs::path exe = fs::read_symlink("/proc/self/exe", error);
  if (error) {
    return {};
  }
  const fs::path dir = exe.parent_path();
  return {dir, dir.parent_path() / "share" / "envlock" / "resume",
          dir.parent_path() / "share" / "resume"};
}

Result<fs::path> find_resume_script(const ResumeOptions& options, const fs::path& work_dir) {
  if (!options.script.empty()) {
    if (!is_script_file(options.script)) {
      return input_error("--resume-script " + options.script.string() + ": no such file");
    }
    return options.script;
  }
  for (const auto& dir : resume_script_dirs()) {
    if (is_script_file(dir / k_script_name)) {
      return dir / k_script_name;
    }
  }
  const fs::path written = work_dir / k_script_name;
  ENVLOCK_TRY(util::write_file_atomic(written, generated::k_resume_script));
  return written;
}

} // namespace envlock::verify
