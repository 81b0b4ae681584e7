#include "context_fixture.hpp"

#include "../git/git_fixture.hpp"

#include "../testutil.hpp"
#include "util/sha256.hpp"

#include <vector>

namespace envlock::test {

ContextFixture::ContextFixture() : lock_path(dir.path() / "envlock.lock.json") {
  const auto repo = dir.path() / "megatron";
  std::filesystem::create_directories(repo);
  run_git(repo, {"init", "-q", "-b", "main"});
  write_text(repo / "README.md", "megatron\n");
  write_text(repo / "tools/run.sh", "#!/bin/sh\necho run\n");
  std::filesystem::permissions(repo / "tools/run.sh", std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  std::filesystem::create_symlink("../README.md", repo / "tools/readme");
  long_path = std::string(60, 'd') + "/" + std::string(60, 'f') + ".py";
  write_text(repo / long_path, "print('long')\n");
  run_git(repo, {"add", "-A"});
  run_git(repo, {"commit", "-q", "-m", "one"});
  commit = run_git(repo, {"rev-parse", "HEAD"});

  write_text(dir.path() / "pyproject.toml", "[project]\nname = \"demo\"\n");
  write_text(dir.path() / "uv.lock", "version = 1\n");
  lock.manifest_path = "envlock.yaml";
  lock.sources["megatron"] = lock::GitPin{"megatron", "main", commit};
  lock.python.project = ".";
  lock.python.pyproject_sha256 = util::sha256_hex("[project]\nname = \"demo\"\n");
  lock.python.uv_lock.path = "uv.lock";
  lock.python.uv_lock.sha256 = util::sha256_hex("version = 1\n");
  lock.enroot.source_date_epoch = 1700000000;
}

} // namespace envlock::test
