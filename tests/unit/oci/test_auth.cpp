#include "../testutil.hpp"
#include "oci/auth.hpp"
#include "oci/challenge.hpp"
#include "oci/credentials.hpp"
#include "util/base64.hpp"
#include "util/fs.hpp"

#include <cstdlib>
#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE_BEGIN("oci");

TEST_CASE("oci::parse_www_authenticate: Docker token spec") {
  auto parsed = oci::parse_www_authenticate(
      R"(Bearer realm="https://auth.example.invalid/token",service="registry.example.invalid",scope="repository:samalba/my-app:pull,push")");
  REQUIRE(parsed);
  REQUIRE(parsed->size() == 1);
  const auto& c = parsed->front();
  CHECK(c.scheme == "bearer");
  CHECK(c.params.at("realm") == "https://auth.example.invalid/token");
  CHECK(c.params.at("service") == "registry.example.invalid");
  CHECK(c.params.at("scope") == "repository:samalba/my-app:pull,push");
}

TEST_CASE("oci::parse_www_authenticate: spaces, escapes, tokens, several challenges") {
  auto parsed = oci::parse_www_authenticate(
      R"(Basic realm="basic \"realm\"" , Bearer Realm = tok, error="invalid_token")");
  REQUIRE(parsed);
  REQUIRE(parsed->size() == 2);
  CHECK((*parsed)[0].scheme == "basic");
  CHECK((*parsed)[0].params.at("realm") == R"(basic "realm")");
  CHECK((*parsed)[1].scheme == "bearer");
  CHECK((*parsed)[1].params.at("realm") == "tok");
  CHECK((*parsed)[1].params.at("error") == "invalid_token");

  auto bare = oci::parse_www_authenticate("Basic");
  REQUIRE(bare);
  CHECK(bare->front().params.empty());
}

TEST_CASE("oci::parse_www_authenticate: errors") {
  auto empty = oci::parse_www_authenticate("  ");
  REQUIRE_FALSE(empty);
  CHECK(empty.error().message == "malformed WWW-Authenticate header: empty");
  auto open = oci::parse_www_authenticate(R"(Bearer realm="https://x)");
  REQUIRE_FALSE(open);
  CHECK(open.error().message ==
        "malformed WWW-Authenticate header: unterminated quoted value for 'realm'");
  auto junk = oci::parse_www_authenticate(R"("quoted")");
  REQUIRE_FALSE(junk);
  CHECK(junk.error().message == "malformed WWW-Authenticate header: expected an authentication "
                                "scheme");
}

TEST_CASE("util::base64_decode_lenient, for credentials") {
  CHECK(util::base64_encode("") == "");
  CHECK(util::base64_encode("f") == "Zg==");
  CHECK(util::base64_encode("fo") == "Zm8=");
  CHECK(util::base64_encode("foo") == "Zm9v");
  CHECK(util::base64_encode("user:pa ss") == "dXNlcjpwYSBzcw==");
  CHECK(util::base64_decode_lenient("dXNlcjpwYSBzcw==").value_or("") == "user:pa ss");
  CHECK(util::base64_decode_lenient("Zm8=").value_or("") == "fo");
  CHECK_FALSE(util::base64_decode_lenient("Zm*v").has_value());
  CHECK_FALSE(util::base64_decode_lenient("Z").has_value());
}

TEST_CASE("oci::docker_config_credential") {
  auto text = util::read_file(test::data_path("oci/good_docker_config.json"));
  REQUIRE(text);
  const auto lookup = [&](const char* registry) {
    auto found = oci::docker_config_credential(*text, registry, "config.json");
    REQUIRE(found);
    return *found;
  };
  auto hub = lookup("registry-1.docker.io");
  REQUIRE(hub);
  CHECK(hub->user == "hub-user");
  CHECK(hub->password == "hub-pass");
  CHECK(hub->source == "config.json");
  auto plain = lookup("registry.example.invalid");
  REQUIRE(plain);
  CHECK(plain->user == "plain-user");
  CHECK(plain->password == "plain-pass");
  auto ported = lookup("ports.example.invalid:5000");
  REQUIRE(ported);
  CHECK(ported->user == "port-user");
  CHECK(ported->password == "p:ass"); // only the first ':' separates
  CHECK_FALSE(lookup("ports.example.invalid").has_value());
  CHECK_FALSE(lookup("other.example.invalid").has_value());
}

TEST_CASE("oci::docker_config_credential: errors never quote the file") {
  auto bad = util::read_file(test::data_path("oci/bad_docker_config_auth.json"));
  REQUIRE(bad);
  auto found = oci::docker_config_credential(*bad, "registry.example.invalid", "cfg.json");
  REQUIRE_FALSE(found);
  CHECK(found.error().message ==
        "cfg.json: the \"auth\" of 'registry.example.invalid' is not base64 of USER:PASSWORD");
  auto broken =
      oci::docker_config_credential(R"({"auths": {"x": {"password": "hunter2")", "x", "cfg.json");
  REQUIRE_FALSE(broken);
  CHECK(broken.error().message == "cfg.json: invalid JSON");
}

TEST_CASE("oci::netrc_credential") {
  auto text = util::read_file(test::data_path("oci/good_enroot_credentials"));
  REQUIRE(text);
  auto alice = oci::netrc_credential(*text, "registry.example.invalid:443", ".credentials");
  REQUIRE(alice);
  CHECK(alice->user == "alice");
  CHECK(alice->password == "alice-pass");
  auto bob = oci::netrc_credential(*text, "ports.example.invalid:5000", ".credentials");
  REQUIRE(bob);
  CHECK(bob->user == "bob");
  CHECK(bob->password == "bob-pass");
  auto carol = oci::netrc_credential(*text, "ports.example.invalid", ".credentials");
  REQUIRE(carol);
  CHECK(carol->user == "carol");
  CHECK_FALSE(oci::netrc_credential(*text, "nobody.example.invalid", "x").has_value());
}

TEST_CASE("oci::find_credential: order of the sources") {
  util::TempDir dir = test::temp_dir();
  const auto config = dir.path() / "config.json";
  const auto netrc = dir.path() / ".credentials";
  test::write_text(config, R"({"auths": {"a.example.invalid": {"auth": "ZGNmZzpkcHc="}}})");
  test::write_text(netrc, "machine a.example.invalid login n password np\n"
                          "machine b.example.invalid login nb password nbp\n");
  const oci::CredentialFiles files{config, netrc};
  unsetenv("ENVLOCK_REGISTRY_USER"); // NOLINT(concurrency-mt-unsafe)
  auto a = oci::find_credential(files, "a.example.invalid");
  REQUIRE(a);
  REQUIRE(*a);
  CHECK((*a)->user == "dcfg");
  auto b = oci::find_credential(files, "b.example.invalid");
  REQUIRE(b);
  REQUIRE(*b);
  CHECK((*b)->user == "nb");
  auto none = oci::find_credential(files, "c.example.invalid");
  REQUIRE(none);
  CHECK_FALSE(none->has_value());

  setenv("ENVLOCK_REGISTRY_USER", "envuser", 1);     // NOLINT(concurrency-mt-unsafe)
  setenv("ENVLOCK_REGISTRY_PASSWORD", "envpass", 1); // NOLINT(concurrency-mt-unsafe)
  auto env = oci::find_credential(files, "a.example.invalid");
  unsetenv("ENVLOCK_REGISTRY_USER");     // NOLINT(concurrency-mt-unsafe)
  unsetenv("ENVLOCK_REGISTRY_PASSWORD"); // NOLINT(concurrency-mt-unsafe)
  REQUIRE(env);
  REQUIRE(*env);
  CHECK((*env)->user == "envuser");
  CHECK((*env)->password == "envpass");
}

TEST_CASE("oci::parse_token_response and basic_authorization") {
  CHECK(oci::parse_token_response(R"({"token": "t1", "access_token": "t2"})", "u").value_or("") ==
        "t1");
  CHECK(oci::parse_token_response(R"({"access_token": "t2"})", "u").value_or("") == "t2");
  auto none = oci::parse_token_response(R"({"tok": "secret-x"})",
                                        "https://auth.example.invalid/token?password=pw");
  REQUIRE_FALSE(none);
  CHECK(none.error().message ==
        "GET https://auth.example.invalid/token?password=REDACTED: no token in the answer");
  CHECK(oci::basic_authorization({"user", "pa ss", ""}) == "Basic dXNlcjpwYSBzcw==");
}

TEST_SUITE_END();
