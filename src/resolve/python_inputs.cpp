#include "resolve/resolve.hpp"

#include "util/fs.hpp"
#include "uv/lock_expect.hpp"
#include "uv/lock_satisfies.hpp"
#include "uv/uv_lock.hpp"

namespace envlock::resolve {

Status check_python_inputs(const manifest::Manifest& manifest, const lock::UvLockPin& uv_lock,
                           std::string_view uv_text) {
  const std::string pyproject_path = project_file(manifest, "pyproject.toml");
  const auto pyproject =
      util::read_regular_file(manifest.dir / pyproject_path, uv::k_uv_lock_limit, pyproject_path);
  if (!pyproject) {
    return input_error("python.project: cannot read " + pyproject.error().message);
  }
  ENVLOCK_TRY_ASSIGN(const uv::SatisfiesResult satisfied,
                     uv::check_satisfies(*pyproject, pyproject_path, uv_text, uv_lock.path));
  lock::Expect expect; // the fields expect_contradictions reads
  expect.pytorch = manifest.expect.pytorch;
  expect.nccl = manifest.expect.nccl;
  expect.python = manifest.expect.python;
  const auto contradictions = uv::expect_contradictions(expect, uv_lock, satisfied.never_installed);
  if (satisfied.moved.empty() && contradictions.empty()) {
    return {};
  }
  std::string message;
  if (!satisfied.moved.empty()) {
    message += "python.project: " + uv_lock.path + " no longer matches " + pyproject_path +
               " (uv lock --check and uv sync --locked refuse it); run 'uv lock' and lock again:";
    for (const auto& moved : satisfied.moved) {
      message += "\n  " + moved.message;
    }
  }
  if (!contradictions.empty()) {
    message += std::string(message.empty() ? "" : "\n") + "expect: " + uv_lock.path +
               " contradicts the manifest:";
    for (const auto& line : contradictions) {
      message += "\n  " + line;
    }
  }
  return input_error(std::move(message));
}

} // namespace envlock::resolve
