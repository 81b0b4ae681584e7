#include "../testutil.hpp"
#include "sbom/collect.hpp"
#include "sbom/cyclonedx.hpp"
#include "sbom/dpkg_status.hpp"
#include "sbom/purl.hpp"
#include "util/json.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <regex>
#include <thread>
#include <unistd.h>

using namespace envlock;

namespace {

const std::string k_sbom_commit = "0123456789abcdef0123456789abcdef01234567";
const std::string k_six_wheel = "8abb2f1d86890a2dfb989f9a77cfcfd3e47c2a354b01111771326f8aa26e0254";

void make_image(const std::filesystem::path& root) {
  test::write_text(root / "etc/os-release",
                   "ID=ubuntu\nVERSION_ID=\"24.04\"\nPRETTY_NAME=\"Ubuntu 24.04 LTS\"\n");
  test::write_text(root / "var/lib/dpkg/status",
                   "Package: bash\nStatus: install ok installed\nArchitecture: amd64\n"
                   "Version: 5.2.21-2ubuntu4\nDescription: shell\n continued line\n\n"
                   "Package: libc6\nStatus: install ok installed\nArchitecture: amd64\n"
                   "Source: glibc\nVersion: 1:2.39-0ubuntu8\n\n"
                   "Package: old\nStatus: deinstall ok config-files\nVersion: 1\n");
  test::write_text(root / "opt/venv/pyvenv.cfg", "home = /usr/bin\nversion = 3.12.3\n");
  test::write_text(root / "opt/venv/bin/python3", "");
  const auto site = root / "opt/venv/lib/python3.12/site-packages";
  test::write_text(site / "six-1.16.0.dist-info/METADATA", "Name: six\nVersion: 1.16.0\n\n");
  test::write_text(site / "six-1.16.0.dist-info/WHEEL", "Tag: py2-none-any\nTag: py3-none-any\n");
  test::write_text(site / "Extra_Thing-0.1.dist-info/METADATA",
                   "Name: Extra_Thing\nVersion: 0.1\n");
  test::write_text(
      root / "usr/local/cuda/version.json",
      R"({"cuda_cudart": {"version": "13.0.96"}, "libcublas": {"version": "13.1.0.3"}})");
  test::write_text(root / "opt/megatron-lm/.envlock-commit", k_sbom_commit + "\n");
}

lock::Lock make_lock() {
  lock::Lock lock;
  lock.image = {"train", "v1", "registry.example.invalid/ml/train"};
  lock.base_image.name = "registry.example.invalid/nvidia/pytorch";
  lock.base_image.reference = "registry.example.invalid/nvidia/pytorch:26.06-py3";
  lock.base_image.digest = "sha256:" + std::string(64, 'a');
  lock.base_image.platform_digest = "sha256:" + std::string(64, 'b');
  lock.base_image.platform = "linux/amd64";
  lock.sources["megatron"] = {"https://github.com/NVIDIA/Megatron-LM.git", "core_v0.19.0",
                              k_sbom_commit};
  lock.python.uv_lock.packages = {
      {"missing-pkg", "2.0", "registry", "https://pypi.example.invalid/simple"},
      {"project", "", "virtual", "."},
      {"pytest", "8.2.0", "registry", "https://pypi.example.invalid/simple", true},
      {"six", "1.16.0", "registry", "https://pypi.example.invalid/simple"}};
  lock.enroot.source_date_epoch = 1700000000;
  return lock;
}

const std::string k_uv_lock = R"([[package]]
name = "six"
version = "1.16.0"
source = { registry = "https://pypi.example.invalid/simple" }
wheels = [
    { url = "https://files.example.invalid/six-1.16.0-py2.py3-none-any.whl", hash = "sha256:8abb2f1d86890a2dfb989f9a77cfcfd3e47c2a354b01111771326f8aa26e0254", size = 11053 },
]
)";

const nlohmann::json* component_named(const nlohmann::json& doc, const std::string& name) {
  for (const auto& component : doc["components"]) {
    if (component["name"] == name) {
      return &component;
    }
  }
  return nullptr;
}

std::string property(const nlohmann::json& object, const std::string& name) {
  for (const auto& p : object.value("properties", nlohmann::json::array())) {
    if (p["name"] == name) {
      return p["value"];
    }
  }
  return "(none)";
}

} // namespace

TEST_SUITE("sbom") {

  TEST_CASE("purls: names, versions and qualifiers percent-encoded as the spec has them") {
    CHECK(sbom::pypi_purl("torch", "2.7.0+cu128") == "pkg:pypi/torch@2.7.0%2Bcu128");
    CHECK(sbom::make_purl("deb", "ubuntu", "libc6", "1:2.39-0ubuntu8",
                          {{"distro", "ubuntu-24.04"}, {"arch", "amd64"}}) ==
          "pkg:deb/ubuntu/libc6@1%3A2.39-0ubuntu8?arch=amd64&distro=ubuntu-24.04");
    CHECK(sbom::oci_purl("127.0.0.1:5000/demo/base", "sha256:ab") ==
          "pkg:oci/base@sha256%3Aab?repository_url=127.0.0.1%3A5000/demo/base");
  }

  TEST_CASE("the serial number is a name-based UUID of the text") {
    const std::string urn = sbom::name_based_urn_uuid("x");
    CHECK(std::regex_match(urn, std::regex("urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab]"
                                           "[0-9a-f]{3}-[0-9a-f]{12}")));
    CHECK(urn == sbom::name_based_urn_uuid("x"));
    CHECK(urn != sbom::name_based_urn_uuid("y"));
  }

  TEST_CASE("dpkg status: stanzas, continuation lines, what is installed") {
    const auto packages = sbom::parse_dpkg_status(
        "Package: a\nStatus: install ok installed\nVersion: 1\nDescription: x\n more\n\n"
        "Package: b\nStatus: deinstall ok config-files\nVersion: 2\n");
    REQUIRE(packages.size() == 2);
    CHECK(packages[0].name == "a");
    CHECK(packages[0].installed());
    CHECK_FALSE(packages[1].installed());
  }

  TEST_CASE("dpkg status read in chunks: the same stanzas, their lines, a long line cut") {
    std::string text = "Package: a\nStatus: install ok installed\nVersion: 1\n\n\nPackage: b\n"
                       "Description: " +
                       std::string(200000, 'x') + "\nVersion: 2\r\nStatus: install ok installed";
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    std::thread writer([&] {
      std::size_t at = 0;
      while (at < text.size()) {
        const auto wrote =
            ::write(fds[1], text.data() + at, std::min<std::size_t>(7000, text.size() - at));
        if (wrote <= 0) {
          break;
        }
        at += static_cast<std::size_t>(wrote);
      }
      ::close(fds[1]);
    });
    std::vector<sbom::DpkgPackage> read;
    const auto status = sbom::read_dpkg_status(fds[0], "status", 1 << 20,
                                               [&](sbom::DpkgPackage p) { read.push_back(p); });
    writer.join();
    ::close(fds[0]);
    REQUIRE(status.has_value());
    REQUIRE(read.size() == 2);
    CHECK(read[0].line == 1);
    CHECK(read[1].line == 6);
    CHECK(read[1].version == "2");
    CHECK(read[1].installed());
    CHECK(read == sbom::parse_dpkg_status(text));

    int small[2];
    REQUIRE(::pipe(small) == 0);
    REQUIRE(::write(small[1], "Package: a\n", 11) == 11);
    ::close(small[1]);
    const auto over = sbom::read_dpkg_status(small[0], "status", 5, [](sbom::DpkgPackage) {});
    ::close(small[0]);
    REQUIRE_FALSE(over.has_value());
    CHECK(over.error().message == "status: larger than 5 bytes");
  }

  TEST_CASE("an image tree: each part found, matched to the lock, the gaps said") {
    const auto dir = test::temp_dir();
    make_image(dir.path());
    sbom::SbomInputs inputs;
    inputs.root = dir.path();
    inputs.lock = make_lock();
    inputs.uv_lock_text = k_uv_lock;
    inputs.uv_lock_origin = "uv.lock";
    inputs.envlock_version = "0.1.0";
    const auto bom = sbom::collect_bom(inputs);
    REQUIRE(bom.has_value());
    const nlohmann::json doc = sbom::to_cyclonedx(*bom);
    CHECK(util::canonical_json(doc) == util::canonical_json(sbom::to_cyclonedx(*bom)));
    CHECK(doc["specVersion"] == "1.6");
    CHECK(doc["metadata"]["timestamp"] == "2023-11-14T22:13:20Z");

    const nlohmann::json* six = component_named(doc, "six");
    REQUIRE(six != nullptr);
    CHECK((*six)["purl"] == "pkg:pypi/six@1.16.0");
    CHECK((*six)["hashes"][0]["content"] == k_six_wheel);
    CHECK(property(*six, "envlock:lock") == "locked");
    CHECK(property(*six, "envlock:uv:wheel") == "six-1.16.0-py2.py3-none-any.whl");
    const nlohmann::json* extra = component_named(doc, "Extra_Thing");
    REQUIRE(extra != nullptr);
    CHECK((*extra)["purl"] == "pkg:pypi/extra-thing@0.1");
    CHECK(property(*extra, "envlock:lock") == "not in uv.lock");
    CHECK(property(doc["metadata"], "envlock:python:locked-not-installed") ==
          "pkg:pypi/missing-pkg@2.0");
    // pytest is locked but the lock's uv sync does not select it (--no-dev): said apart.
    CHECK(property(doc["metadata"], "envlock:python:locked-not-selected") ==
          "pkg:pypi/pytest@8.2.0");
    for (const auto& p : doc["metadata"]["properties"]) {
      CHECK_FALSE((p["name"] == "envlock:python:locked-not-installed" &&
                   p["value"] == "pkg:pypi/pytest@8.2.0"));
    }

    const nlohmann::json* libc = component_named(doc, "libc6");
    REQUIRE(libc != nullptr);
    CHECK((*libc)["purl"] ==
          "pkg:deb/ubuntu/libc6@1%3A2.39-0ubuntu8?arch=amd64&distro=ubuntu-24.04");
    CHECK(component_named(doc, "old") == nullptr);
    CHECK(property(doc["metadata"], "envlock:dpkg:not-installed") ==
          "1 stanzas whose Status is not installed (left out)");

    const nlohmann::json* cuda = component_named(doc, "cuda-runtime");
    REQUIRE(cuda != nullptr);
    CHECK((*cuda)["version"] == "13.0.96");
    CHECK(property(*cuda, "envlock:found-in") == "/usr/local/cuda/version.json (cuda_cudart)");
    const nlohmann::json* cublas = component_named(doc, "cublas");
    REQUIRE(cublas != nullptr);
    CHECK((*cublas)["version"] == "13.1.0.3");

    const nlohmann::json* megatron = component_named(doc, "Megatron-LM");
    REQUIRE(megatron != nullptr);
    CHECK((*megatron)["version"] == k_sbom_commit);
    CHECK((*megatron)["purl"] == "pkg:github/nvidia/megatron-lm@" + k_sbom_commit);
    CHECK(property(*megatron, "envlock:found-in") == "/opt/megatron-lm/.envlock-commit");

    const nlohmann::json& subject = doc["metadata"]["component"];
    CHECK(subject["name"] == "registry.example.invalid/ml/train");
    const nlohmann::json& base = subject["pedigree"]["ancestors"][0];
    CHECK(base["purl"] == "pkg:oci/pytorch@sha256%3A" + std::string(64, 'b') +
                              "?repository_url=registry.example.invalid/nvidia/pytorch");
    CHECK(property(doc["metadata"], "envlock:gpu:nccl").starts_with("not found: "));
  }

  TEST_CASE("without a lock, nothing is compared and no timestamp is made up") {
    const auto dir = test::temp_dir();
    make_image(dir.path());
    sbom::SbomInputs inputs;
    inputs.root = dir.path();
    const auto bom = sbom::collect_bom(inputs);
    REQUIRE(bom.has_value());
    const nlohmann::json doc = sbom::to_cyclonedx(*bom);
    CHECK_FALSE(doc["metadata"].contains("timestamp"));
    CHECK(property(*component_named(doc, "six"), "envlock:lock") == "(none)");
    CHECK(property(doc["metadata"], "envlock:lock") == "none given: nothing compared with a lock");
    CHECK(component_named(doc, "Megatron-LM") == nullptr);
  }
}
