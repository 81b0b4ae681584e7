#include "context_fixture.hpp"

#include "../testutil.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <stdexcept>
#include <vector>

namespace envlock::test {

namespace {

std::string run_git(const std::filesystem::path& repo, std::vector<std::string> args) {
  args.insert(args.begin(), {"git", "-C", repo.string()});
  util::ProcessOptions options;
  options.env = {{"GIT_CONFIG_NOSYSTEM", "1"},
                 {"GIT_CONFIG_GLOBAL", "/dev/null"},
                 {"GIT_AUTHOR_NAME", "Test"},
                 {"GIT_AUTHOR_EMAIL", "test@example.invalid"},
                 {"GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z"},
                 {"GIT_COMMITTER_NAME", "Test"},
                 {"GIT_COMMITTER_EMAIL", "test@example.invalid"},
                 {"GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z"}};
  const auto result = util::run_process(args, options);
  if (!result || result->exit_code != 0) {
    throw std::runtime_error("git " + util::join(args, " ") +
                             " failed: " + (result ? result->err : result.error().message));
  }
  return std::string(util::trim(result->out));
}

} // namespace

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
