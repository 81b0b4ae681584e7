#include "cli/project_files.hpp"

#include <filesystem>
#include <iostream>
#include <system_error>

namespace envlock::cli {

namespace fs = std::filesystem;

void find_in_parents(const CLI::Option* option, std::string& value) {
  std::error_code ec;
  if ((option != nullptr && option->count() > 0) || value.empty() || fs::exists(value, ec) ||
      fs::exists(".git", ec)) {
    return;
  }
  fs::path dir = fs::current_path(ec);
  if (ec) {
    return;
  }
  std::string up;
  while (dir.has_relative_path()) {
    dir = dir.parent_path();
    up += "../";
    if (fs::exists(dir / value, ec)) {
      value = up + value;
      std::cerr << "envlock: using " << value << " (found in " << dir.string() << ")\n";
      return;
    }
    if (fs::exists(dir / ".git", ec)) {
      return; // the top of the work tree: a file above it belongs to another project
    }
  }
}

std::string searched_folders() {
  std::error_code ec;
  fs::path dir = fs::current_path(ec);
  if (ec) {
    return "the current folder";
  }
  const std::string here = "here (" + dir.string() + ")";
  if (fs::exists(dir / ".git", ec)) {
    return here + ", the top of its git work tree";
  }
  while (dir.has_relative_path()) {
    dir = dir.parent_path();
    if (fs::exists(dir / ".git", ec)) {
      return here + " and the folders above it up to " + dir.string() +
             " (the top of its git work tree)";
    }
  }
  return here + " and the folders above it up to " + dir.string();
}

} // namespace envlock::cli
