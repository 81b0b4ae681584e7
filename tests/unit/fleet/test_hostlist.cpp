#include "fleet/hostlist.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using envlock::fleet::expand_hostlist;
using envlock::fleet::node_less;

namespace {

std::vector<std::string> names(const std::string& list) {
  auto result = expand_hostlist(list);
  REQUIRE(result.has_value());
  return *result;
}

} // namespace

TEST_SUITE("fleet.hostlist") {
  TEST_CASE("expands ranges, lists and plain names in natural order") {
    CHECK(names("node[1-4]") == std::vector<std::string>{"node1", "node2", "node3", "node4"});
    CHECK(names("node[10,2-3],gpu7") ==
          std::vector<std::string>{"gpu7", "node2", "node3", "node10"});
    CHECK(names("n[08-10]") == std::vector<std::string>{"n08", "n09", "n10"});
    CHECK(names("a,b,a") == std::vector<std::string>{"a", "b"});
  }

  TEST_CASE("many runs out of order merge into one sorted list without duplicates") {
    CHECK(
        names("c[3-4],a[1-2],b1,a0,n[1-3],n[2-4],z") ==
        std::vector<std::string>{"a0", "a1", "a2", "b1", "c3", "c4", "n1", "n2", "n3", "n4", "z"});
    const auto big = names("x[1-50000],a");
    REQUIRE(big.size() == 50001);
    CHECK(big.front() == "a");
    CHECK(big[1] == "x1");
    CHECK(big.back() == "x50000");
    CHECK(std::is_sorted(big.begin(), big.end(), node_less));
  }

  TEST_CASE("natural order compares digit runs as numbers") {
    CHECK(node_less("node2", "node10"));
    CHECK_FALSE(node_less("node10", "node2"));
    CHECK(node_less("node9", "nodea"));
    CHECK(node_less("gpu1-2", "gpu1-10"));
  }

  TEST_CASE("bad lists are input errors naming the list") {
    auto r = expand_hostlist("node[1-4");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "host list 'node[1-4': unbalanced '[' and ']'");
    r = expand_hostlist("node[4-1]");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "host list 'node[4-1]': bad range '4-1'");
    r = expand_hostlist(" , ");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "host list ' , ': no node names");
  }

  TEST_CASE("a list of more than 65536 names is refused before it is expanded") {
    CHECK(expand_hostlist("n[1-65536]").value().size() == 65536);
    auto r = expand_hostlist("n[1-999999999]");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "host list 'n[1-999999999]': more than 65536 names");
    r = expand_hostlist("a[1-40000],b[1-40000]");
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().message == "host list 'a[1-40000],b[1-40000]': more than 65536 names");
  }
}
