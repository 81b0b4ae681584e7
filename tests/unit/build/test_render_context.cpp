#include "../testutil.hpp"
#include "build/render_quote.hpp"
#include "build/template_context.hpp"
#include "lock/lock.hpp"

#include <doctest/doctest.h>
#include <string>

using namespace envlock;
using nlohmann::json;

namespace {

lock::Lock good_lock() {
  auto lock = lock::read_lock(test::data_path("render/good_lock.json"));
  REQUIRE(lock.has_value());
  return *lock;
}

json context_of(const lock::Lock& lock, build::Verifier verifier = build::Verifier::omit) {
  auto ctx = build::template_context(lock, "L", verifier);
  REQUIRE_MESSAGE(ctx.has_value(), (ctx ? "" : ctx.error().message));
  return *ctx;
}

std::string error_of(const lock::Lock& lock) {
  auto ctx = build::template_context(lock, "L", build::Verifier::omit);
  REQUIRE(!ctx.has_value());
  CHECK(ctx.error().code == ExitCode::usage);
  return ctx.error().message;
}

} // namespace

TEST_SUITE_BEGIN("render");

TEST_CASE("render::shell_word") {
  CHECK(*build::shell_word("--extra") == "--extra");
  CHECK(*build::shell_word("a=b,c:d/e@f%g+h") == "a=b,c:d/e@f%g+h");
  CHECK(*build::shell_word("") == "''");
  CHECK(*build::shell_word("two words") == "'two words'");
  CHECK(*build::shell_word("it's $HOME") == "'it'\\''s $HOME'");
  CHECK(*build::shell_join({"--extra", "a b", "c"}) == "--extra 'a b' c");
  CHECK(*build::shell_join({}) == "");
  const auto bad = build::shell_word("a\nb");
  REQUIRE(!bad.has_value());
  CHECK(bad.error().message == "contains a line break, which a Dockerfile line cannot hold");
}

TEST_CASE("render::dockerfile_quote") {
  CHECK(*build::dockerfile_quote("2.30.7-1+cuda13.3") == "\"2.30.7-1+cuda13.3\"");
  CHECK(*build::dockerfile_quote(R"(say "hi" to $USER\)") == R"("say \"hi\" to \$USER\\")");
  CHECK(!build::dockerfile_quote("a\rb").has_value());
}

TEST_CASE("render: the context keeps every lock field and adds derived values") {
  const auto lock = good_lock();
  const json ctx = context_of(lock);
  // Every field of the lock's JSON is there under its own name.
  const json lock_json = lock::to_json(lock);
  CHECK(ctx["base_image"]["digest"] == lock_json["base_image"]["digest"]);
  CHECK(ctx["python"]["uv_lock"] == lock_json["python"]["uv_lock"]);
  CHECK(ctx["expect"] == lock_json["expect"]);
  CHECK(ctx["base_image"]["pinned"] ==
        "registry.example.invalid/nvidia/pytorch@sha256:" + std::string(64, 'a'));
  CHECK(ctx["base_image"]["tagged"] == "registry.example.invalid/nvidia/pytorch:26.06-py3");
  CHECK(ctx["build_args"][0] == json{{"name", "NCCL_VERSION"},
                                     {"value", "2.30.7-1+cuda13.3"},
                                     {"quoted", "\"2.30.7-1+cuda13.3\""}});
  CHECK(ctx["has_build_args"] == true);
  CHECK(ctx["python"]["sync_args_joined"] ==
        "--extra mlm --no-install-project --no-install-package torch");
  CHECK(ctx["python"]["uv"]["url"] == "https://github.com/astral-sh/uv/releases/download/0.7.2/"
                                      "uv-x86_64-unknown-linux-gnu.tar.gz");
  CHECK(ctx["lock_sha256"] == lock::lock_sha256(lock));
  CHECK(ctx["envlock_version"] == ENVLOCK_VERSION);
  CHECK(ctx["with_verifier"] == false);
  CHECK(context_of(lock, build::Verifier::include)["with_verifier"] == true);
  CHECK(ctx["labels"].size() == 7);
  CHECK(ctx["labels"][3] == json{{"key", "org.opencontainers.image.revision"},
                                 {"value", "\"0123456789abcdef0123456789abcdef01234567\""}});
}

TEST_CASE("render: arm64 takes uv's aarch64 archive") {
  auto lock = good_lock();
  lock.base_image.platform = "linux/arm64";
  CHECK(context_of(lock)["python"]["uv"]["archive"] == "uv-aarch64-unknown-linux-gnu.tar.gz");
}

TEST_CASE("render: credentials in a git URL never reach the context") {
  auto lock = good_lock();
  lock.sources["megatron"].git = "https://user:s3cret@git.example.invalid/NVIDIA/Megatron-LM.git";
  const std::string dumped = context_of(lock).dump();
  CHECK(dumped.find("s3cret") == std::string::npos);
  CHECK(dumped.find("https://git.example.invalid/NVIDIA/Megatron-LM.git") != std::string::npos);
}

TEST_CASE("render: a lock that leaves something floating is refused") {
  auto lock = good_lock();
  lock.base_image.digest = "";
  CHECK(error_of(lock) ==
        "L: base_image.digest: '' is not a sha256 digest (sha256: and 64 hex digits)");
  lock = good_lock();
  lock.sources["megatron"].commit = "core_v0.19.0";
  CHECK(error_of(lock) ==
        "L: sources.megatron.commit: 'core_v0.19.0' is not a full commit (40 hex digits)");
  lock = good_lock();
  lock.python.uv_sha256 = "ABC";
  CHECK(error_of(lock) == "L: python.uv.sha256: 'ABC' is not a sha256 (64 hex digits)");
  lock = good_lock();
  lock.python.uv_version = "latest; rm -rf /";
  CHECK(error_of(lock) == "L: python.uv.version: 'latest; rm -rf /' is not a uv version");
  lock = good_lock();
  lock.base_image.platform = "linux/s390x";
  CHECK(error_of(lock) == "L: base_image.platform: 'linux/s390x' has no uv release archive "
                          "envlock knows (linux/amd64, linux/arm64)");
}

TEST_CASE("render: values a Dockerfile cannot hold are refused") {
  auto lock = good_lock();
  lock.build_args["BAD-NAME"] = "x";
  CHECK(error_of(lock) ==
        "L: build_args.BAD-NAME: not a valid build argument name (letters, digits and _)");
  lock = good_lock();
  lock.build_args["MOTD"] = "two\nlines";
  CHECK(error_of(lock) ==
        "L: build_args.MOTD: contains a line break, which a Dockerfile line cannot hold");
  lock = good_lock();
  lock.python.sync_args.push_back("a\nb");
  CHECK(error_of(lock) ==
        "L: python.sync_args[5]: contains a line break, which a Dockerfile line cannot hold");
}

TEST_SUITE_END();
