#include "git/location.hpp"
#include "git/ref.hpp"
#include "git/tree.hpp"
#include "git_fixture.hpp"

#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE("git") {

  TEST_CASE("a local repository: tags (peeled), branches and commits") {
    const test::GitFixture f;
    const auto base = f.dir.path();
    CHECK(git::resolve_commit("repo", "v1", base).value() == f.c1);
    CHECK(f.v2_tag_object != f.c2);
    CHECK(git::resolve_commit("repo", "v2", base).value() == f.c2);
    CHECK(git::resolve_commit("repo", "release", base).value() == f.c2);
    CHECK(git::resolve_commit("repo", "main", base).value() == f.c3);
    CHECK(git::resolve_commit("repo", "same", base).value() == f.c1); // the tag wins
    CHECK(git::resolve_commit("repo", f.c2, base).value() == f.c2);
    CHECK(git::resolve_commit("repo", f.c3.substr(0, 10), base).value() == f.c3);
    CHECK(git::resolve_commit("./repo/", "v1", base).value() == f.c1);
  }

  TEST_CASE("a local repository: unknown refs and missing repositories") {
    const test::GitFixture f;
    const auto base = f.dir.path();
    auto missing = git::resolve_commit("repo", "nope", base);
    REQUIRE_FALSE(missing.has_value());
    CHECK(missing.error().code == ExitCode::usage);
    // As a registry's 404 lists an image's tags, the repository's tags are listed.
    CHECK(missing.error().message == "ref 'nope' not found in repo; tags of repo: same, v1, v2");
    const std::string absent(40, 'a');
    CHECK(git::resolve_commit("repo", absent, base).error().message ==
          "ref '" + absent + "' not found in repo; tags of repo: same, v1, v2");
    auto no_repo = git::resolve_commit("elsewhere", "v1", base);
    REQUIRE_FALSE(no_repo.has_value());
    CHECK(no_repo.error().message == "no git repository at elsewhere");
  }

  TEST_CASE("file:// names a repository on this machine, read as a local one (as git does)") {
    const test::GitFixture f;
    const std::string url = "file://" + f.repo.string();
    const auto base = f.dir.path();
    CHECK(git::resolve_commit(url, "v1", base).value() == f.c1);
    CHECK(git::resolve_commit(url, "v2", base).value() == f.c2); // peeled, not the tag object
    CHECK(git::resolve_commit(url, "release", base).value() == f.c2);
    CHECK(git::resolve_commit(url, "same", base).value() == f.c1);
    CHECK(git::resolve_commit(url, f.c3.substr(0, 8), base).value() == f.c3);
    // Read locally, a commit the repository lacks is refused (a remote one is taken unchecked).
    CHECK_FALSE(git::resolve_commit(url, std::string(40, 'b'), base).has_value());
    auto missing = git::resolve_commit(url, "core_v9", base);
    REQUIRE_FALSE(missing.has_value());
    CHECK(missing.error().code == ExitCode::usage);
    CHECK(missing.error().message ==
          "ref 'core_v9' not found in " + url + "; tags of " + url + ": same, v1, v2");
  }

  TEST_CASE("network failures are environment errors with the URL redacted") {
    const test::GitFixture f;
    auto down = git::resolve_commit("http://user:secret@127.0.0.1:1/repo.git", "v1", f.dir.path());
    REQUIRE_FALSE(down.has_value());
    CHECK(down.error().code == ExitCode::environment);
    CHECK(
        down.error().message.starts_with("cannot list the refs of http://127.0.0.1:1/repo.git: "));
    CHECK(down.error().message.find("secret") == std::string::npos);
    const std::string gone_url = "file://" + (f.dir.path() / "gone").string();
    auto gone = git::resolve_commit(gone_url, "v1", f.dir.path());
    REQUIRE_FALSE(gone.has_value());
    CHECK(gone.error().code == ExitCode::usage); // a local path that holds no repository
  }

  TEST_CASE("locations: URLs, scp-like and paths; redaction") {
    CHECK(git::classify_location("https://host.invalid/x.git") == git::LocationKind::remote_url);
    CHECK(git::classify_location("git@host.invalid:org/x.git") == git::LocationKind::remote_url);
    CHECK(git::classify_location("../megatron") == git::LocationKind::local_path);
    CHECK(git::classify_location("file:///srv/megatron") == git::LocationKind::local_path);
    CHECK(git::local_path_of("file:///srv/megatron") == "/srv/megatron");
    CHECK(git::local_path_of("file://localhost/srv/megatron") == "/srv/megatron");
    CHECK(git::local_path_of("../megatron") == "../megatron");
    CHECK(git::classify_location("vendor/a:b") == git::LocationKind::local_path);
    CHECK(git::redact_location("https://tok:pw@host.invalid/x.git") ==
          "https://host.invalid/x.git");
    CHECK(git::redact_location("https://host.invalid/a@b") == "https://host.invalid/a@b");
    CHECK(git::redact_location("git@host.invalid:x.git") == "git@host.invalid:x.git");
  }

  TEST_CASE("reading a file and listing the tree at a commit") {
    const test::GitFixture f;
    CHECK(git::read_blob(f.repo, f.c1, "README.md").value() == "one\n");
    CHECK(git::read_blob(f.repo, "v2", "README.md").value() == "two\n");
    CHECK(git::read_blob(f.repo, f.c1, "nope.txt").error().message ==
          "nope.txt not found at commit " + f.c1);
    CHECK(git::read_blob(f.repo, f.c1, "src").error().message ==
          "src at commit " + f.c1 + " is not a file");
    const auto tree = git::list_tree(f.repo, f.c3);
    REQUIRE(tree.has_value());
    REQUIRE(tree->size() == 2);
    CHECK((*tree)[0].path == "README.md");
    CHECK((*tree)[0].mode == 0100644);
    CHECK((*tree)[1].path == "src/tool.sh");
    CHECK((*tree)[1].mode == 0100755);
    CHECK((*tree)[1].oid.size() == 40);
    CHECK(git::list_tree(f.repo, "nope").error().message ==
          "commit 'nope' not found in " + f.repo.string());
  }

} // TEST_SUITE
