#include "diff/version.hpp"

#include <doctest/doctest.h>

using envlock::diff::compare_versions;
using envlock::diff::is_major_change;

TEST_SUITE("report.version") {
  TEST_CASE("orders release segments numerically") {
    CHECK(*compare_versions("1.43.46", "1.43.56") < 0);
    CHECK(*compare_versions("3.0", "3.0.1") < 0);
    CHECK(*compare_versions("3.0", "3.0.0") == 0);
    CHECK(*compare_versions("10.0", "9.9") > 0);
    CHECK(*compare_versions("4.5.3", "4.5.0") > 0);
  }

  TEST_CASE("orders dev < pre < final < post") {
    CHECK(*compare_versions("1.0.dev1", "1.0a1") < 0);
    CHECK(*compare_versions("1.0a1", "1.0b1") < 0);
    CHECK(*compare_versions("1.0b2", "1.0rc1") < 0);
    CHECK(*compare_versions("1.0rc1", "1.0") < 0);
    CHECK(*compare_versions("1.0", "1.0.post1") < 0);
    CHECK(*compare_versions("2026.2", "2026.3.post1") < 0);
    CHECK(*compare_versions("1.0a1.dev1", "1.0a1") < 0);
    CHECK(*compare_versions("2.13.0a0+8145d630e8", "2.13.0") < 0);
  }

  TEST_CASE("local labels sort after the public version") {
    CHECK(*compare_versions("2.16.0+b9d690e0", "2.17.1+4329ff84") < 0);
    CHECK(*compare_versions("1.0.0", "1.0.0+abc") < 0);
    CHECK(*compare_versions("1.0.0+2", "1.0.0+10") < 0);
  }

  TEST_CASE("epochs and normalisation") {
    CHECK(*compare_versions("1!0.1", "2.0") > 0);
    CHECK(*compare_versions("v1.0", "1.0") == 0);
    CHECK(*compare_versions("1.0-1", "1.0.post1") == 0);
    CHECK(*compare_versions("1.0RC1", "1.0rc1") == 0);
  }

  TEST_CASE("text that is not a version does not compare") {
    CHECK_FALSE(compare_versions("main", "1.0").has_value());
    CHECK_FALSE(compare_versions("1.0", "").has_value());
    CHECK_FALSE(compare_versions("1.0 beta", "1.0").has_value());
  }

  TEST_CASE("major changes") {
    CHECK(is_major_change("24.4.2", "26.3.0"));
    CHECK(is_major_change("1.26.20", "2.7.0"));
    CHECK_FALSE(is_major_change("2.56.1", "2.57.0"));
    CHECK_FALSE(is_major_change("main", "dev"));
  }
}
