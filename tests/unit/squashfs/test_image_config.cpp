#include "squashfs/image_config.hpp"

#include <doctest/doctest.h>

using namespace envlock::squashfs;

namespace {
const std::string k_config_digest = "sha256:" + std::string(64, 'a');
}

TEST_SUITE("squashfs") {

  TEST_CASE("parse_image_config keeps label order and sorts volumes") {
    const auto config = parse_image_config(
        R"({"architecture":"amd64","config":{"Env":["A=1"],"Entrypoint":["/e"],"Cmd":["x\ny"],
      "WorkingDir":"  /w  ","Labels":{"z":"1","a":"2"},"Volumes":{"/v2":{},"/v1":{}}}})",
        "config");
    REQUIRE(config);
    CHECK(config->architecture == "amd64");
    CHECK(config->env == std::vector<std::string>{"A=1"});
    CHECK(config->entrypoint == std::vector<std::string>{"/e"});
    CHECK(config->cmd == std::vector<std::string>{"x", "y"});
    CHECK(config->working_dir == "/w");
    REQUIRE(config->labels.size() == 2);
    CHECK(config->labels[0].first == "z");
    CHECK(config->volumes == std::vector<std::string>{"/v1", "/v2"});
  }

  TEST_CASE("parse_image_config treats absent and null fields as empty") {
    const auto config =
        parse_image_config(R"({"config":{"Cmd":null,"Entrypoint":"not-a-list"}})", "c");
    REQUIRE(config);
    CHECK(config->cmd.empty());
    CHECK(config->entrypoint.empty());
    CHECK(config->working_dir.empty());
  }

  TEST_CASE("parse_image_manifest reads layers in order and refuses bad ones") {
    const std::string good =
        R"({"config":{"digest":")" + k_config_digest +
        R"("},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":")" +
        k_config_digest + R"(","size":7}]})";
    const auto manifest = parse_image_manifest(good, "m");
    REQUIRE(manifest);
    CHECK(manifest->config_digest == k_config_digest);
    REQUIRE(manifest->layers.size() == 1);
    CHECK(manifest->layers[0].size == 7);

    const std::string odd = R"({"config":{"digest":")" + k_config_digest +
                            R"("},"layers":[{"mediaType":"application/x-odd","digest":")" +
                            k_config_digest + R"("}]})";
    const auto bad = parse_image_manifest(odd, "m");
    REQUIRE(!bad);
    CHECK(bad.error().message ==
          "m: layers[0].mediaType: unsupported layer type 'application/x-odd'");
    // The layer's size bounds its download, so a layer without one is refused.
    const std::string unsized =
        R"({"config":{"digest":")" + k_config_digest +
        R"("},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":")" +
        k_config_digest + R"("}]})";
    const auto no_size = parse_image_manifest(unsized, "m");
    REQUIRE(!no_size);
    CHECK(no_size.error().message ==
          "m: layers[0].size: missing or negative (the layer's size bounds its download)");
    CHECK_FALSE(manifest->config_size);
    const auto index = parse_image_manifest(R"({"manifests":[]})", "m");
    REQUIRE(!index);
    CHECK(index.error().message == "m: not an image manifest");
  }
}
