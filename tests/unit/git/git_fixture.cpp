#include "git_fixture.hpp"

#include "../testutil.hpp"
#include "util/process.hpp"
#include "util/strings.hpp"

#include <stdexcept>
#include <vector>

namespace envlock::test {

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

GitFixture::GitFixture() : repo(dir.path() / "repo") {
  std::filesystem::create_directories(repo);
  run_git(repo, {"init", "-q", "-b", "main"});
  write_text(repo / "README.md", "one\n");
  write_text(repo / "src/tool.sh", "#!/bin/sh\necho hi\n");
  std::filesystem::permissions(repo / "src/tool.sh", std::filesystem::perms::owner_exec,
                               std::filesystem::perm_options::add);
  run_git(repo, {"add", "-A"});
  run_git(repo, {"commit", "-q", "-m", "one"});
  c1 = run_git(repo, {"rev-parse", "HEAD"});
  run_git(repo, {"tag", "v1"});
  run_git(repo, {"tag", "same"});
  write_text(repo / "README.md", "two\n");
  run_git(repo, {"commit", "-q", "-am", "two"});
  c2 = run_git(repo, {"rev-parse", "HEAD"});
  run_git(repo, {"tag", "-a", "v2", "-m", "version 2"});
  v2_tag_object = run_git(repo, {"rev-parse", "v2"});
  run_git(repo, {"branch", "release"});
  write_text(repo / "README.md", "three\n");
  run_git(repo, {"commit", "-q", "-am", "three"});
  c3 = run_git(repo, {"rev-parse", "HEAD"});
  run_git(repo, {"branch", "same"});
}

} // namespace envlock::test
