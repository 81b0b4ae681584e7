// Where PyTorch is installed in the checked environment and what its torch/version.py says,
// read without starting Python.
#pragma once

#include "verify/probes/python_env.hpp"
#include "verify/run_context.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace envlock::verify {

// The quoted string assignments of a generated version.py: `NAME = 'v'`, `NAME: T = "v"`. Other
// lines (None, booleans, lists) are left out.
std::map<std::string, std::string> parse_version_py(std::string_view text);

struct TorchInstall {
  std::filesystem::path dir; // .../site-packages/torch
  std::string version;       // __version__
  std::string cuda;          // cuda ("" when None)
  std::string git_version;
  // Why version.py could not be read although it is there ("PATH: is a FIFO, not a regular
  // file"); the other fields are empty then.
  std::string problem;
};

// The first torch/version.py in the site-packages folders (own ones first); nothing when PyTorch
// is not installed or version.py has no __version__.
// A version.py that is there but cannot be read is found, with its problem.
std::optional<TorchInstall> find_torch(const RunContext& context, const PythonEnvironment& env);

} // namespace envlock::verify
