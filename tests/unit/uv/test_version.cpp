#include "../testutil.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"
#include "uv/version.hpp"

#include <algorithm>

#include <doctest/doctest.h>

using envlock::uv::compare_versions;
using envlock::uv::is_major_change;
using envlock::uv::parse_py_version;
using envlock::uv::to_string;
using envlock::uv::version_text_less;

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

  TEST_CASE("numbers of any length compare without conversion") {
    CHECK(*compare_versions("1.12345678901234567890", "1.2") > 0);
    CHECK(*compare_versions("1.0+1234567890123456789012", "1.0+1234567890123456789013") < 0);
    CHECK(*compare_versions("1.0+1234567890123456789012", "1.0+99") > 0);
    CHECK(*compare_versions("1.0+0001", "1.0+1") == 0);
    CHECK(*compare_versions("00018446744073709551616", "18446744073709551616.0") == 0);
    CHECK(*compare_versions("18446744073709551616", "18446744073709551615") > 0);
    CHECK(*compare_versions("1.0.post99999999999999999999", "1.0.post100000000000000000000") < 0);
    CHECK(*compare_versions("99999999999999999999!1.0", "2.0") > 0);
    CHECK(*compare_versions("1.0.dev18446744073709551616", "1.0") < 0);
  }

  TEST_CASE("local labels: separators, numbers after words, more segments last") {
    CHECK(*compare_versions("1.0+ubuntu-1", "1.0+ubuntu.1") == 0);
    CHECK(*compare_versions("1.0+Ubuntu_1", "1.0+ubuntu.1") == 0);
    CHECK(*compare_versions("1.0+abc", "1.0+1") < 0);
    CHECK(*compare_versions("1.0+abc", "1.0+abc.1") < 0);
    CHECK_FALSE(parse_py_version("1.0+ab!c").has_value());
    CHECK_FALSE(parse_py_version("1.0+").has_value());
    CHECK_FALSE(parse_py_version("1.0+a..b").has_value());
  }

  TEST_CASE("the normalized form") {
    CHECK(to_string(*parse_py_version("v1.0-1")) == "1.0.post1");
    CHECK(to_string(*parse_py_version("00!01.002RC")) == "1.2rc0");
    CHECK(to_string(*parse_py_version("1!2.0-preview.3_r4-DEV+Ubuntu-01")) ==
          "1!2.0rc3.post4.dev0+ubuntu.01");
  }

  TEST_CASE("version lists sort by PEP 440, then text, then what does not parse") {
    std::vector<std::string> v = {"main",      "2.11.0",    "2.9.1", "",
                                  "2.9.1+cpu", "2.10.0rc1", "2.9.01"};
    std::sort(v.begin(), v.end(),
              [](const std::string& a, const std::string& b) { return version_text_less(a, b); });
    CHECK(v == std::vector<std::string>{"2.9.01", "2.9.1", "2.9.1+cpu", "2.10.0rc1", "2.11.0", "",
                                        "main"});
  }

  TEST_CASE("agrees with the packaging library on the reference pairs") {
    // tests/data/report/pep440_pairs.tsv: A, B and packaging.version's order of A and B
    // (-1, 0, 1), written by tests/data/report/make_pep440_pairs.py.
    const auto text = envlock::util::read_file(envlock::test::data_path("report/pep440_pairs.tsv"));
    REQUIRE(text.has_value());
    std::size_t pairs = 0;
    for (const auto& line : envlock::util::split(*text, '\n')) {
      if (line.empty() || line.front() == '#') {
        continue;
      }
      const auto f = envlock::util::split(line, '\t');
      REQUIRE(f.size() == 3);
      CAPTURE(line);
      const auto order = compare_versions(f[0], f[1]);
      REQUIRE(order.has_value());
      const int got = std::is_lt(*order) ? -1 : (std::is_gt(*order) ? 1 : 0);
      CHECK(got == std::stoi(f[2]));
      ++pairs;
    }
    CHECK(pairs >= 2000);
  }
}
