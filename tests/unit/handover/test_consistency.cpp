#include "../testutil.hpp"
#include "handover/consistency.hpp"

#include <doctest/doctest.h>

using namespace envlock;

namespace {

handover::Records consistency_records() {
  const auto at = [](const std::string& name) { return test::data_path("handover/full/" + name); };
  handover::RecordPaths p;
  p.lock = at("envlock.lock.json");
  p.provenance = at("provenance.json");
  p.build_result = at("build-result.json");
  p.squashfs_result = at("squashfs-result.json");
  auto records = handover::read_records(p);
  REQUIRE_MESSAGE(records.has_value(), records.error().message);
  return *records;
}

} // namespace

TEST_CASE("handover consistency: the records of one build agree") {
  CHECK(handover::mismatched_records(consistency_records()).empty());
}

TEST_CASE("handover consistency: the built image of one build, the provenance and .sqsh of "
          "another") {
  handover::Records r = consistency_records();
  const std::string built = r.build_result->value.digest;
  r.build_result->value.digest = "sha256:" + std::string(64, 'b');
  const auto lines = handover::mismatched_records(r);
  REQUIRE(lines.size() >= 2);
  CHECK(lines[0] == "provenance.json cites the image " + built +
                        "; build-result.json built sha256:" + std::string(64, 'b'));
  CHECK(lines[1].starts_with("squashfs-result.json cites the image "));
}

TEST_CASE("handover consistency: a .sqsh and a lock of another build") {
  handover::Records r = consistency_records();
  r.squashfs_result->value.sha256 = std::string(64, 'c');
  r.lock->record.sha256 = std::string(64, 'd');
  const auto lines = handover::mismatched_records(r);
  REQUIRE_FALSE(lines.empty());
  CHECK(lines[0].starts_with("provenance.json cites the lock sha256 "));
  CHECK(lines[0].ends_with("; envlock.lock.json is " + std::string(64, 'd')));
  CHECK(lines[1].ends_with("; squashfs-result.json describes " + std::string(64, 'c') + " (" +
                           r.squashfs_result->value.file_name + ")"));
}
