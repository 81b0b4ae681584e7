#include "util/digest_vote.hpp"

#include <doctest/doctest.h>

namespace envlock::util {

TEST_CASE("digest vote: the minority is named at its first differing step, then left out") {
  const DigestSteps good = {{4, "a"}, {8, "b"}, {12, "c"}};
  const DigestSteps bad = {{4, "a"}, {8, "x"}, {12, "y"}};
  const DigestSteps shorter = {{4, "a"}};
  const DigestVote vote = vote_digests({good, good, bad, shorter});
  REQUIRE(vote.dissent.size() == 1);
  CHECK(vote.dissent[0].member == 2);
  CHECK(vote.dissent[0].step == 8);
  CHECK(vote.dissent[0].found == "x");
  CHECK(vote.dissent[0].majority == "b");
  CHECK(vote.dissent[0].majority_count == 2);
  CHECK(vote.dissent[0].voters == 3);
  CHECK_FALSE(vote.tie);
  CHECK(vote.steps_compared == 3);
}

TEST_CASE("digest vote: a split without a strict majority is a tie that names nobody") {
  const DigestVote vote = vote_digests(
      {{{4, "a"}, {8, "b"}}, {{4, "a"}, {8, "b"}}, {{4, "a"}, {8, "z"}}, {{4, "a"}, {8, "z"}}});
  REQUIRE(vote.tie);
  CHECK(vote.tie->step == 8);
  CHECK(vote.tie->sides == std::vector<std::pair<std::string, std::size_t>>{{"b", 2}, {"z", 2}});
  CHECK(vote.dissent.empty());
}

TEST_CASE("digest vote: one member is too few to compare") {
  CHECK(vote_digests({{{4, "a"}}}).too_small);
  CHECK_FALSE(vote_digests({{{4, "a"}}, {{4, "a"}}}).too_small);
}

} // namespace envlock::util
