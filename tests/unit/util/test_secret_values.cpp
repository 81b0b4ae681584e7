#include "util/base64.hpp"
#include "util/secret_values.hpp"

#include <cstdlib>
#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE_BEGIN("util");

TEST_CASE("util::SecretValues finds a secret in each of its forms") {
  util::SecretValues secrets;
  secrets.add_login("envlock-user", "S3cret/pw");
  CHECK(secrets.found_in("error: S3cret/pw echoed"));
  CHECK(secrets.found_in("?password=S3cret%2Fpw"));
  CHECK(secrets.found_in("Basic " + util::base64_encode("envlock-user:S3cret/pw")));
  // Base64 of a longer text holding the password, at each of the three alignments.
  for (const char* before : {"", "x", "xy", "xyz:", "pre-"}) {
    const std::string encoded = util::base64_encode(std::string(before) + "S3cret/pw" + "-after");
    CHECK_MESSAGE(secrets.found_in(encoded), before);
  }
  CHECK_FALSE(secrets.found_in("S3cret/p and envlock-user"));
  CHECK(secrets.scrub("a S3cret/pw b " + util::base64_encode("envlock-user:S3cret/pw")) ==
        "a *** b ***");
  CHECK(secrets.scrub("nothing here") == "nothing here");
}

TEST_CASE("util::SecretValues ignores values too short to tell from text") {
  util::SecretValues secrets;
  secrets.add("abc");
  secrets.add("");
  CHECK(secrets.empty());
  secrets.add("abcdefg", util::k_min_environment_secret_length);
  CHECK(secrets.empty());
  secrets.add("abcd");
  CHECK(secrets.found_in("xabcdx"));
}

TEST_CASE("util::SecretValues takes secret-named environment variables") {
  CHECK(util::is_secret_variable_name("ENVLOCK_REGISTRY_PASSWORD"));
  CHECK(util::is_secret_variable_name("ci_job_token"));
  CHECK(util::is_secret_variable_name("AWS_SECRET_ACCESS_KEY"));
  CHECK(util::is_secret_variable_name("SIGNING_KEY"));
  CHECK_FALSE(util::is_secret_variable_name("GIT_AUTHOR_NAME"));
  CHECK_FALSE(util::is_secret_variable_name("KEYBOARD"));
  setenv("ENVLOCK_TEST_API_TOKEN", "tok-0123456789", 1); // NOLINT(concurrency-mt-unsafe)
  setenv("ENVLOCK_TEST_SHORT_TOKEN", "short", 1);        // NOLINT(concurrency-mt-unsafe)
  setenv("ENVLOCK_TEST_PLAIN", "plain-value-123", 1);    // NOLINT(concurrency-mt-unsafe)
  util::SecretValues secrets;
  secrets.add_environment();
  unsetenv("ENVLOCK_TEST_API_TOKEN");   // NOLINT(concurrency-mt-unsafe)
  unsetenv("ENVLOCK_TEST_SHORT_TOKEN"); // NOLINT(concurrency-mt-unsafe)
  unsetenv("ENVLOCK_TEST_PLAIN");       // NOLINT(concurrency-mt-unsafe)
  CHECK(secrets.found_in("x tok-0123456789 y"));
  CHECK_FALSE(secrets.found_in("short"));
  CHECK_FALSE(secrets.found_in("plain-value-123"));
}

TEST_SUITE_END();
