#include "uv/artifacts.hpp"

#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE("uv") {

  TEST_CASE("a wheel's file name gives its expanded tags; other names give none") {
    CHECK(uv::wheel_tags("six-1.16.0-py2.py3-none-any.whl") ==
          std::vector<std::string>{"py2-none-any", "py3-none-any"});
    CHECK(uv::wheel_tags("torch-2.7.0-1-cp312-cp312-manylinux_2_28_x86_64.whl") ==
          std::vector<std::string>{"cp312-cp312-manylinux_2_28_x86_64"});
    CHECK(
        uv::wheel_tags("numpy-2.0.0-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl") ==
        std::vector<std::string>{"cp312-cp312-manylinux2014_x86_64",
                                 "cp312-cp312-manylinux_2_17_x86_64"});
    CHECK(uv::wheel_tags("six-1.16.0.tar.gz").empty());
    CHECK(uv::wheel_tags("not-a-wheel.whl").empty());
  }

  TEST_CASE("uv.lock's sdist and wheels are read with their sha256") {
    const std::string text = R"(version = 1
revision = 2
requires-python = ">=3.12"

[[package]]
name = "Six"
version = "1.16.0"
source = { registry = "https://pypi.example.invalid/simple" }
sdist = { url = "https://files.example.invalid/six-1.16.0.tar.gz", hash = "sha256:1E61C37477A1626458E36F7B1D82AA5C9B094FA4802892072E49DE9C60C4C926", size = 34041 }
wheels = [
    { url = "https://files.example.invalid/six-1.16.0-py2.py3-none-any.whl?x=1", hash = "sha256:8abb2f1d86890a2dfb989f9a77cfcfd3e47c2a354b01111771326f8aa26e0254", size = 11053 },
    { path = "wheels/six-1.16.0-py3-none-any.whl", hash = "md5:00" },
]

[[package]]
name = "project"
version = "0.1.0"
source = { virtual = "." }
)";
    const auto read = uv::read_artifacts(text, "uv.lock");
    REQUIRE(read.has_value());
    REQUIRE(read->size() == 2);
    const uv::PackageArtifacts& six = read->front();
    CHECK(six.name == "Six");
    CHECK(six.version == "1.16.0");
    REQUIRE(six.sdist.has_value());
    CHECK(six.sdist->sha256 == "1e61c37477a1626458e36f7b1d82aa5c9b094fa4802892072e49de9c60c4c926");
    CHECK(six.sdist->size == 34041U);
    REQUIRE(six.wheels.size() == 2);
    CHECK(six.wheels[0].filename == "six-1.16.0-py2.py3-none-any.whl");
    CHECK(six.wheels[0].sha256 ==
          "8abb2f1d86890a2dfb989f9a77cfcfd3e47c2a354b01111771326f8aa26e0254");
    CHECK(six.wheels[1].filename == "six-1.16.0-py3-none-any.whl");
    CHECK(six.wheels[1].sha256.empty());
    CHECK(read->back().wheels.empty());
  }

  TEST_CASE("a bad hash and a wheels value that is no array are refused, naming the package") {
    const auto bad = uv::read_artifacts(
        "[[package]]\nname = \"x\"\nversion = \"1\"\nwheels = [{ url = \"x-1-py3-none-any.whl\", "
        "hash = \"sha256:zz\" }]\n",
        "uv.lock");
    REQUIRE_FALSE(bad.has_value());
    CHECK(bad.error().message ==
          "uv.lock: package 'x' wheel: hash 'sha256:zz' is not sha256:<64 hex>");
    const auto not_array = uv::read_artifacts("[[package]]\nname = \"x\"\nwheels = 3\n", "uv.lock");
    REQUIRE_FALSE(not_array.has_value());
    CHECK(not_array.error().message == "uv.lock: package 'x': wheels must be an array");
    const auto broken = uv::read_artifacts("[[package]\n", "uv.lock");
    REQUIRE_FALSE(broken.has_value());
    CHECK(broken.error().message.starts_with("uv.lock:1:"));
  }
}
