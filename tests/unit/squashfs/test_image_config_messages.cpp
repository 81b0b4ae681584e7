// The image config and manifest readers' "a field has the wrong type" error, word for word: a
// field whose JSON type is not the one the reader asks for is an input error naming the document,
// not an exception.
#include "squashfs/image_config.hpp"

#include <doctest/doctest.h>

using namespace envlock;
using namespace envlock::squashfs;

TEST_SUITE("squashfs") {

  TEST_CASE("parse_image_config: a field of the wrong type") {
    const auto number =
        parse_image_config(R"({"architecture":0,"config":{"Env":["A=1"]}})", "blobs/sha256/cfg");
    REQUIRE_FALSE(number);
    CHECK(number.error().code == ExitCode::usage);
    CHECK(number.error().message ==
          "blobs/sha256/cfg: a field has the wrong type ([json.exception.type_error.302] type "
          "must be string, but is number)");
    const auto list = parse_image_config(R"({"Architecture":["amd64"]})", "config.json");
    REQUIRE_FALSE(list);
    CHECK(list.error().message == "config.json: a field has the wrong type "
                                  "([json.exception.type_error.302] type must be string, but is "
                                  "array)");
  }

  TEST_CASE("parse_image_config: config fields of another type are read as absent") {
    // Env, Labels and Volumes are only read when they have their own type; WorkingDir is printed
    // raw as jq would.
    const auto config = parse_image_config(
        R"({"config":{"Env":7,"Labels":[1],"Volumes":"/v","WorkingDir":3}})", "c");
    REQUIRE(config);
    CHECK(config->env.empty());
    CHECK(config->labels.empty());
    CHECK(config->volumes.empty());
    CHECK(config->working_dir == "3");
  }

  TEST_CASE("parse_image_manifest: a field of the wrong type") {
    const std::string digest = "sha256:" + std::string(64, 'a');
    const auto size = parse_image_manifest(
        R"({"config":{"digest":")" + digest + R"("},"layers":[{"digest":")" + digest +
            R"(","mediaType":"application/vnd.oci.image.layer.v1.tar","size":"12"}]})",
        "manifest.json");
    REQUIRE_FALSE(size);
    CHECK(size.error().message == "manifest.json: a field has the wrong type "
                                  "([json.exception.type_error.302] type must be number, but is "
                                  "string)");
    const auto layers =
        parse_image_manifest(R"({"config":{"digest":")" + digest + R"("},"layers":5})", "m");
    REQUIRE_FALSE(layers);
    CHECK(layers.error().message ==
          "m: a field has the wrong type ([json.exception.type_error.305] cannot use "
          "operator[] with a numeric argument with number)");
  }
}
