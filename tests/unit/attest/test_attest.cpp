#include "attest/artifact.hpp"
#include "attest/tag_index.hpp"
#include "util/base64.hpp"
#include "util/sha256.hpp"

#include <doctest/doctest.h>

using namespace envlock;

namespace {

std::string envelope_of(const std::string& predicate_type) {
  const nlohmann::json statement = {
      {"_type", "https://in-toto.io/Statement/v1"},
      {"subject", nlohmann::json::array({{{"name", "x"}, {"digest", {{"sha256", "ab"}}}}})},
      {"predicateType", predicate_type},
      {"predicate", nlohmann::json::object()}};
  return nlohmann::json(
             {{"payload", util::base64_encode(statement.dump())},
              {"payloadType", "application/vnd.in-toto+json"},
              {"signatures", nlohmann::json::array({{{"keyid", "k"}, {"sig", "c2ln"}}})}})
      .dump();
}

} // namespace

TEST_SUITE("attest") {

  TEST_CASE("the referrers tag is the spec's, for every example it gives") {
    CHECK(attest::referrers_tag("sha256:" + std::string(64, 'a')) ==
          "sha256-" + std::string(64, 'a'));
    CHECK(attest::referrers_tag("sha512:" + std::string(128, 'a')) ==
          "sha512-" + std::string(64, 'a'));
    CHECK(attest::referrers_tag(
              "test+algorithm+using+algorithm+separators+and+lots+of+characters+to+excercise+"
              "overall+truncation:alsoSome=InTheEncodedSectionToShowHyphenReplacementAndLotsAndLots"
              "OfCharactersToExcerciseEncodedTruncation") ==
          "test-algorithm-using-algorithm-s-alsoSome-"
          "InTheEncodedSectionToShowHyphenReplacementAndLotsAndLot");
  }

  TEST_CASE("files are told apart by content") {
    auto provenance =
        attest::classify("p.dsse.json", envelope_of("https://slsa.dev/provenance/v1"));
    REQUIRE(provenance.has_value());
    CHECK(provenance->kind == attest::Kind::provenance);
    CHECK(provenance->media_type == "application/vnd.dsse.envelope.v1+json");
    auto node = attest::classify("n.dsse.json",
                                 envelope_of("https://in-toto.io/attestation/test-result/v0.1"));
    REQUIRE(node.has_value());
    CHECK(node->kind == attest::Kind::node);
    auto sbom = attest::classify("s.json", R"({"bomFormat": "CycloneDX", "specVersion": "1.6"})");
    REQUIRE(sbom.has_value());
    CHECK(sbom->kind == attest::Kind::sbom);
    CHECK(sbom->media_type == "application/vnd.cyclonedx+json");
    auto report = attest::classify("r.json", R"({"schema": "envlock.report/v1"})");
    REQUIRE(report.has_value());
    CHECK(report->kind == attest::Kind::report);
    auto other = attest::classify("o.json", R"({"a": 1})");
    REQUIRE_FALSE(other.has_value());
    CHECK(other.error().message == "o.json: neither a DSSE envelope, a CycloneDX SBOM nor an "
                                   "envlock verification report (schema envlock.report/v1)");
    auto unknown = attest::classify("u.dsse.json", envelope_of("https://example.invalid/p"));
    REQUIRE_FALSE(unknown.has_value());
    CHECK(unknown.error().message ==
          "u.dsse.json: a DSSE envelope whose statement's predicateType is "
          "'https://example.invalid/p', neither https://slsa.dev/provenance/v1 nor "
          "https://in-toto.io/attestation/test-result/v0.1");
  }

  TEST_CASE("the artifact manifest: artifactType, the empty config, one layer, the subject") {
    auto file = attest::classify("sbom.cdx.json", R"({"bomFormat": "CycloneDX"})");
    REQUIRE(file.has_value());
    const attest::Subject subject{"application/vnd.oci.image.manifest.v1+json",
                                  "sha256:" + std::string(64, 'b'), 1234};
    const std::string text = attest::artifact_manifest(*file, subject);
    CHECK(text == attest::artifact_manifest(*file, subject));
    const nlohmann::json doc = nlohmann::json::parse(text);
    CHECK(doc["artifactType"] == "application/vnd.cyclonedx+json");
    CHECK(doc["config"]["mediaType"] == "application/vnd.oci.empty.v1+json");
    CHECK(doc["config"]["digest"] == "sha256:" + util::sha256_hex("{}"));
    CHECK(doc["config"]["size"] == 2);
    CHECK(doc["layers"][0]["digest"] == "sha256:" + util::sha256_hex(file->bytes));
    CHECK(doc["layers"][0]["annotations"]["org.opencontainers.image.title"] == "sbom.cdx.json");
    CHECK(doc["subject"]["digest"] == subject.digest);
    CHECK(doc["subject"]["size"] == 1234);
    const nlohmann::json descriptor =
        attest::referrer_descriptor(text, "sha256:" + util::sha256_hex(text));
    CHECK(descriptor["artifactType"] == "application/vnd.cyclonedx+json");
    CHECK(descriptor["size"] == text.size());
    CHECK(descriptor["annotations"]["dev.envlock.attestation"] == "sbom");
    CHECK(attest::kind_of(descriptor) == attest::Kind::sbom);
  }

  TEST_CASE("the tag's index: read, added to once, and refused when it is no index") {
    nlohmann::json index = attest::empty_index();
    const nlohmann::json one = {{"digest", "sha256:" + std::string(64, '1')}, {"size", 1}};
    index = attest::with_descriptor(index, one);
    index = attest::with_descriptor(index, one);
    CHECK(index["manifests"].size() == 1);
    CHECK(attest::index_lists(index, "sha256:" + std::string(64, '1')));
    CHECK_FALSE(attest::index_lists(index, "sha256:" + std::string(64, '2')));
    const auto read = attest::read_tag_index(attest::index_bytes(index),
                                             "application/vnd.oci.image.index.v1+json", "tag t");
    REQUIRE(read.has_value());
    CHECK(*read == index);
    const auto wrong =
        attest::read_tag_index(R"({"schemaVersion": 2, "layers": []})",
                               "application/vnd.oci.image.manifest.v1+json", "tag t");
    REQUIRE_FALSE(wrong.has_value());
    CHECK(wrong.error().message == "tag t holds a 'application/vnd.oci.image.manifest.v1+json', "
                                   "not an image index of referrers; it is left as it is");
  }
}
