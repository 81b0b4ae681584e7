// A project folder for the build-context tests: a Megatron-LM-like git repository (made with the
// git program, fixed dates) with a plain file, an executable, a symlink, a submodule-free deep
// path longer than 100 characters; a python project (pyproject.toml, uv.lock); and a Lock
// pointing at them as `envlock lock` would write it beside envlock.yaml.
#pragma once

#include "../testutil.hpp"
#include "lock/lock.hpp"
#include "util/fs.hpp"

#include <filesystem>
#include <string>

namespace envlock::test {

struct ContextFixture {
  util::TempDir dir = test::temp_dir("envlock-context");
  std::filesystem::path lock_path; // dir/envlock.lock.json (not written unless asked)
  std::string commit;
  std::string long_path; // the >100-character path inside the repository
  lock::Lock lock;

  ContextFixture();
};

} // namespace envlock::test
