#include "oci/image_ref.hpp"

#include <doctest/doctest.h>
#include <string>

using namespace envlock;

namespace {

const std::string k_hex = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

oci::ImageRef parsed(const std::string& text) {
  auto ref = oci::parse_image_ref(text);
  REQUIRE_MESSAGE(ref.has_value(), (ref ? "" : ref.error().message));
  return *ref;
}

std::string error_of(const std::string& text) {
  auto ref = oci::parse_image_ref(text);
  REQUIRE(!ref.has_value());
  CHECK(ref.error().code == ExitCode::usage);
  return ref.error().message;
}

} // namespace

TEST_SUITE_BEGIN("oci");

TEST_CASE("oci::parse_image_ref: Docker Hub names") {
  const auto ubuntu = parsed("ubuntu");
  CHECK(ubuntu.registry == "registry-1.docker.io");
  CHECK(ubuntu.repository == "library/ubuntu");
  CHECK(ubuntu.tag.empty());
  CHECK(ubuntu.reference() == "latest");
  CHECK(ubuntu.to_string() == "registry-1.docker.io/library/ubuntu");

  CHECK(parsed("ubuntu:24.04").tag == "24.04");
  CHECK(parsed("nvidia/cuda:12.4.1-devel").repository == "nvidia/cuda");
  CHECK(parsed("docker.io/ubuntu").repository == "library/ubuntu");
  CHECK(parsed("index.docker.io/library/ubuntu").registry == "registry-1.docker.io");
  // Without '.', ':' or "localhost" the first component is a namespace, not a host.
  CHECK(parsed("myhost/app").registry == "registry-1.docker.io");
  CHECK(parsed("myhost/app").repository == "myhost/app");
}

TEST_CASE("oci::parse_image_ref: registries, tags and digests") {
  const auto a = parsed("nvcr.io/nvidia/pytorch:24.05-py3");
  CHECK(a.registry == "nvcr.io");
  CHECK(a.repository == "nvidia/pytorch");
  CHECK(a.tag == "24.05-py3");
  CHECK(a.name() == "nvcr.io/nvidia/pytorch");

  const auto b = parsed("127.0.0.1:5000/base:v1");
  CHECK(b.registry == "127.0.0.1:5000");
  CHECK(b.repository == "base");
  CHECK(b.tag == "v1");

  const auto c = parsed("localhost/team/app@sha256:" + k_hex);
  CHECK(c.registry == "localhost");
  CHECK(c.tag.empty());
  CHECK(c.digest == "sha256:" + k_hex);
  CHECK(c.reference() == "sha256:" + k_hex);

  const auto d = parsed("registry.example.invalid:8443/a/b_c/d--e:T_1.x@sha256:" + k_hex);
  CHECK(d.tag == "T_1.x");
  CHECK(d.digest == "sha256:" + k_hex);
  CHECK(d.reference() == "sha256:" + k_hex);
  CHECK(d.to_string() == "registry.example.invalid:8443/a/b_c/d--e:T_1.x@sha256:" + k_hex);
  CHECK(parsed(d.to_string()) == d);
  CHECK(parsed("a__b-c/x:" + std::string(128, 't')).tag.size() == 128);
}

TEST_CASE("oci::parse_image_ref: errors") {
  CHECK(error_of("") == "invalid image reference '': empty");
  CHECK(error_of("Ubuntu") == "invalid image reference 'Ubuntu': repository must be lowercase");
  CHECK(error_of("ubuntu:") == "invalid image reference 'ubuntu:': invalid tag ''");
  CHECK(error_of("ubuntu:-x") == "invalid image reference 'ubuntu:-x': invalid tag '-x'");
  CHECK(error_of("ubuntu:" + std::string(129, 't'))
            .ends_with(": invalid tag '" + std::string(129, 't') + "'"));
  CHECK(error_of("ubuntu@sha256:abc") ==
        "invalid image reference 'ubuntu@sha256:abc': invalid digest 'sha256:abc': expected "
        "sha256: and 64 lowercase hex digits");
  CHECK(error_of("ubuntu@sha256:" + std::string(64, 'A')).find("invalid digest") !=
        std::string::npos);
  CHECK(error_of("a//b") == "invalid image reference 'a//b': invalid repository component ''");
  CHECK(error_of("a/-b") == "invalid image reference 'a/-b': invalid repository component '-b'");
  CHECK(error_of("a/b_") == "invalid image reference 'a/b_': invalid repository component 'b_'");
  CHECK(error_of("a/b___c") ==
        "invalid image reference 'a/b___c': invalid repository component 'b___c'");
  CHECK(error_of("localhost:5000/") ==
        "invalid image reference 'localhost:5000/': missing repository");
  CHECK(error_of("bad_host.io/x") ==
        "invalid image reference 'bad_host.io/x': invalid registry 'bad_host.io'");
  CHECK(error_of("host.io:port/x:1").find("invalid registry 'host.io:port'") != std::string::npos);
  CHECK(error_of(":tag") == "invalid image reference ':tag': missing repository");
}

TEST_CASE("oci::is_valid_digest") {
  CHECK(oci::is_valid_digest("sha256:" + k_hex));
  CHECK_FALSE(oci::is_valid_digest("sha256:" + k_hex.substr(1)));
  CHECK_FALSE(oci::is_valid_digest("sha512:" + k_hex));
  CHECK_FALSE(oci::is_valid_digest("sha256:" + std::string(64, 'g')));
}

TEST_SUITE_END();
