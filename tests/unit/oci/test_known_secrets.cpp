#include "../testutil.hpp"
#include "oci/known_secrets.hpp"
#include "util/base64.hpp"

#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE_BEGIN("oci");

TEST_CASE("oci::docker_config_secrets takes every entry's secrets") {
  const std::string pair = util::base64_encode("alice:pw-of-alice");
  const auto secrets =
      oci::docker_config_secrets(R"({"auths": {"a.invalid": {"auth": ")" + pair +
                                 R"("}, "b.invalid": {"username": "bob", "password": "pw-of-bob"},
          "c.invalid": {"identitytoken": "idtoken-123"}}, "credsStore": "none"})");
  CHECK(secrets.found_in("x pw-of-alice x"));
  CHECK(secrets.found_in(pair));
  CHECK(secrets.found_in("pw-of-bob"));
  CHECK(secrets.found_in(util::base64_encode("bob:pw-of-bob")));
  CHECK(secrets.found_in("idtoken-123"));
  CHECK_FALSE(secrets.found_in("alice bob none"));
  CHECK(oci::docker_config_secrets("not json").empty());
}

TEST_CASE("oci::netrc_secrets takes every password") {
  const auto secrets = oci::netrc_secrets("machine a.invalid login u password first-pw\n"
                                          "machine b.invalid:5000 login v password second-pw\n");
  CHECK(secrets.found_in("first-pw"));
  CHECK(secrets.found_in("second-pw"));
  CHECK(secrets.found_in(util::base64_encode("v:second-pw")));
  CHECK_FALSE(secrets.found_in("a.invalid"));
}

TEST_CASE("oci::known_secrets reads the credential files it is pointed at") {
  const auto dir = test::temp_dir();
  test::write_text(dir.path() / "config.json",
                   R"({"auths": {"r.invalid": {"username": "u", "password": "docker-pw"}}})");
  test::write_text(dir.path() / ".credentials", "machine r.invalid login u password netrc-pw\n");
  const auto secrets = oci::known_secrets(
      oci::CredentialFiles{dir.path() / "config.json", dir.path() / ".credentials"});
  CHECK(secrets.found_in("docker-pw"));
  CHECK(secrets.found_in("netrc-pw"));
  CHECK_FALSE(
      oci::known_secrets(oci::CredentialFiles{dir.path() / "missing.json", dir.path() / "missing"})
          .found_in("docker-pw"));
}

TEST_SUITE_END();
