#include "importer/image_uri.hpp"

#include <doctest/doctest.h>

using envlock::importer::parse_image_uri;
using envlock::importer::UriKind;

namespace {

const std::string k_uri_hex = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

std::string parsed_uri(const std::string& text) {
  const auto uri = parse_image_uri(text);
  REQUIRE_MESSAGE(uri.has_value(), uri.error().message);
  return uri->image.to_string() + (uri->user.empty() ? "" : " user=" + uri->user);
}

std::string uri_error_of(const std::string& text) {
  const auto uri = parse_image_uri(text);
  REQUIRE(!uri.has_value());
  CHECK(uri.error().code == envlock::ExitCode::usage);
  return uri.error().message;
}

} // namespace

TEST_SUITE("importer.image_uri") {
  TEST_CASE("Enroot's '#' form: any host before '#' is the registry") {
    CHECK(parsed_uri("docker://nvcr.io#nvidia/pytorch:26.06-py3") ==
          "nvcr.io/nvidia/pytorch:26.06-py3");
    CHECK(parsed_uri("docker://127.0.0.1:5000#test/sample:v1") == "127.0.0.1:5000/test/sample:v1");
    CHECK(parsed_uri("docker://myregistry#img") == "myregistry/img");
    CHECK(parsed_uri("docker://bob@nvcr.io#nvidia/pytorch:1") ==
          "nvcr.io/nvidia/pytorch:1 user=bob");
    CHECK(parsed_uri("docker://docker.io#ubuntu:24.04") ==
          "registry-1.docker.io/library/ubuntu:24.04");
  }

  TEST_CASE("digests: @sha256, TAG@sha256 and Enroot 3's :sha256 tag") {
    CHECK(parsed_uri("docker://nvcr.io#nvidia/pytorch@sha256:" + k_uri_hex) ==
          "nvcr.io/nvidia/pytorch@sha256:" + k_uri_hex);
    CHECK(parsed_uri("docker://nvcr.io#nvidia/pytorch:26.06-py3@sha256:" + k_uri_hex) ==
          "nvcr.io/nvidia/pytorch:26.06-py3@sha256:" + k_uri_hex);
    CHECK(parsed_uri("docker://nvcr.io#nvidia/pytorch:sha256:" + k_uri_hex) ==
          "nvcr.io/nvidia/pytorch@sha256:" + k_uri_hex);
    CHECK(parsed_uri("docker://ubuntu@sha256:" + k_uri_hex) ==
          "registry-1.docker.io/library/ubuntu@sha256:" + k_uri_hex);
    CHECK(parsed_uri("docker://u@ubuntu@sha256:" + k_uri_hex) ==
          "registry-1.docker.io/library/ubuntu@sha256:" + k_uri_hex + " user=u");
  }

  TEST_CASE("the Docker form: a registry needs '.' or ':', as Enroot reads it") {
    CHECK(parsed_uri("docker://nvcr.io/nvidia/pytorch:26.06-py3") ==
          "nvcr.io/nvidia/pytorch:26.06-py3");
    CHECK(parsed_uri("docker://ubuntu:24.04") == "registry-1.docker.io/library/ubuntu:24.04");
    CHECK(parsed_uri("docker://nvidia/cuda") == "registry-1.docker.io/nvidia/cuda");
    CHECK(parsed_uri("docker://localhost/foo") == "registry-1.docker.io/localhost/foo");
    CHECK(parsed_uri("docker://127.0.0.1:5000/a/b:c") == "127.0.0.1:5000/a/b:c");
  }

  TEST_CASE("paths are .sqsh files, as Pyxis tells them apart") {
    const auto uri = parse_image_uri("/local/images/train.sqsh");
    REQUIRE(uri.has_value());
    CHECK(uri->kind == UriKind::sqsh_path);
    CHECK(uri->path == "/local/images/train.sqsh");
    CHECK(parse_image_uri("./x.sqsh")->kind == UriKind::sqsh_path);
  }

  TEST_CASE("the reference a lookup uses") {
    CHECK(envlock::importer::wanted_reference(*parse_image_uri("docker://a.io#b")) == ":latest");
    CHECK(envlock::importer::wanted_reference(*parse_image_uri("docker://a.io#b:v2")) == ":v2");
    CHECK(envlock::importer::wanted_reference(*parse_image_uri(
              "docker://a.io#b:v2@sha256:" + k_uri_hex)) == "@sha256:" + k_uri_hex);
  }

  TEST_CASE("bad URIs say what is wrong and what is expected") {
    const std::string expected =
        "; expected docker://[USER@][REGISTRY#]IMAGE[:TAG][@sha256:…] or the path of a .sqsh";
    CHECK(uri_error_of("dockerd://ubuntu") ==
          "invalid image URI 'dockerd://ubuntu': the scheme 'dockerd://' names no registry image "
          "envlock can pin" +
              expected);
    CHECK(uri_error_of("ubuntu.sqsh") ==
          "invalid image URI 'ubuntu.sqsh': no docker:// scheme" + expected);
    CHECK(uri_error_of("docker://a.io#Nvidia/pytorch") ==
          "invalid image URI 'docker://a.io#Nvidia/pytorch': repository must be lowercase" +
              expected);
    CHECK(uri_error_of("docker://a.io#b@sha256:abc") ==
          "invalid image URI 'docker://a.io#b@sha256:abc': invalid digest 'sha256:abc': expected "
          "sha256: and 64 lowercase hex digits" +
              expected);
    CHECK(uri_error_of("docker://a b#c") ==
          "invalid image URI 'docker://a b#c': invalid registry 'a b'" + expected);
    CHECK(uri_error_of("docker://") == "invalid image URI 'docker://': missing image" + expected);
  }
}
