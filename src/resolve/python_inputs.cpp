#include "resolve/resolve.hpp"

#include "util/fs.hpp"
#include "uv/lock_expect.hpp"
#include "uv/lock_satisfies.hpp"
#include "uv/requirement.hpp"
#include "uv/sync_selection.hpp"
#include "uv/uv_lock.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <system_error>
#include <tuple>

namespace envlock::resolve {

namespace {

// The project's other files (a member's or a local package's pyproject.toml), relative to the
// folder that holds pyproject.toml, read as uv reads them while it checks the lock.
uv::ProjectFiles project_files(std::filesystem::path root) {
  uv::ProjectFiles files;
  files.read = [root](const std::string& path) -> Result<std::optional<std::string>> {
    std::error_code ec;
    const auto status = std::filesystem::status(root / path, ec);
    if (ec || status.type() == std::filesystem::file_type::not_found) {
      return std::optional<std::string>();
    }
    if (status.type() != std::filesystem::file_type::regular) {
      return std::optional<std::string>();
    }
    auto text = util::read_regular_file(root / path, uv::k_uv_lock_limit, path);
    if (!text) {
      return input_error("python.project: cannot read " + text.error().message);
    }
    return std::optional<std::string>(std::move(*text));
  };
  files.folders = [root](const std::string& folder) -> std::optional<std::vector<std::string>> {
    std::error_code ec;
    if (!std::filesystem::is_directory(root / folder, ec)) {
      return std::nullopt;
    }
    std::vector<std::string> out;
    for (std::filesystem::directory_iterator it(root / folder, ec), end; !ec && it != end;
         it.increment(ec)) {
      std::error_code kind;
      if (it->is_directory(kind)) {
        out.push_back(it->path().filename().string());
      }
    }
    std::sort(out.begin(), out.end());
    return out;
  };
  return files;
}

} // namespace

Status check_python_inputs(const manifest::Manifest& manifest, const lock::UvLockPin& uv_lock,
                           std::string_view uv_text) {
  const std::string pyproject_path = project_file(manifest, "pyproject.toml");
  const auto pyproject =
      util::read_regular_file(manifest.dir / pyproject_path, uv::k_uv_lock_limit, pyproject_path);
  if (!pyproject) {
    return input_error("python.project: cannot read " + pyproject.error().message);
  }
  ENVLOCK_TRY_ASSIGN(
      const uv::SatisfiesResult satisfied,
      uv::check_satisfies(*pyproject, pyproject_path, uv_text, uv_lock.path,
                          project_files((manifest.dir / pyproject_path).parent_path())));
  // What uv would read and envlock did not (a member's missing pyproject.toml, dynamic
  // dependencies): said, not refused.
  for (const auto& note : satisfied.notes) {
    std::cerr << "envlock: note: python.project: " << note << "\n";
  }
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

Status mark_not_selected(const manifest::Manifest& manifest, lock::UvLockPin& uv_lock,
                         std::string_view uv_text) {
  const std::string pyproject_path = project_file(manifest, "pyproject.toml");
  const auto pyproject =
      util::read_regular_file(manifest.dir / pyproject_path, uv::k_uv_lock_limit, pyproject_path);
  if (!pyproject) {
    return input_error("python.project: cannot read " + pyproject.error().message);
  }
  ENVLOCK_TRY_ASSIGN(const uv::SyncSelection selection,
                     uv::sync_selection({uv_text, uv_lock.path, *pyproject, pyproject_path},
                                        manifest.python.sync_args, manifest.base.platform,
                                        manifest.expect.python));
  for (auto& package : uv_lock.packages) {
    const uv::SelectedPackage key{uv::normalize_name(package.name), package.version};
    package.not_selected =
        std::binary_search(selection.not_selected.begin(), selection.not_selected.end(), key,
                           [](const uv::SelectedPackage& a, const uv::SelectedPackage& b) {
                             return std::tie(a.name, a.version) < std::tie(b.name, b.version);
                           });
  }
  return {};
}

} // namespace envlock::resolve
