// Manifests that parse: defaults, every key, path resolution and the JSON form.
#include "manifest_testutil.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

#include <map>
#include <string>
#include <vector>

using namespace envlock;

TEST_SUITE_BEGIN("manifest");

TEST_CASE("manifest: the required keys alone take the defaults") {
  const auto result = test::parse_data("good_minimal.yaml");
  REQUIRE_MESSAGE(result.has_value(), result.error().message);
  const manifest::Manifest& m = *result;
  CHECK(m.schema == 1);
  CHECK(m.path == "good_minimal.yaml");
  CHECK(m.dir.empty());
  CHECK(m.image.name == "shan-training");
  CHECK(m.image.tag == "mc0.19.2-cu13.3");
  CHECK(m.image.repository.empty());
  CHECK(m.base.image == "registry.example.invalid/nvidia/pytorch:26.06-py3");
  CHECK(m.base.platform == "linux/amd64");
  REQUIRE(m.sources.size() == 1);
  CHECK(m.sources.at("megatron").git == "../megatron");
  CHECK(m.sources.at("megatron").ref == "core_v0.19.2");
  CHECK(m.python.project == ".");
  CHECK(m.python.uv.version == "0.7.2");
  CHECK(m.python.uv.sha256.empty());
  CHECK(m.python.sync_args.empty());
  CHECK(m.build.args.empty());
  CHECK(m.expect.cuda.empty());
  CHECK(m.expect.gpus.count == 0);
  CHECK(m.expect.gpus.model.empty());
  CHECK(m.expect.nccl_busbw_gbps.empty());
  CHECK(m.expect.host.empty());
  CHECK(m.expect.resume == lock::ResumeExpect{});
  CHECK(m.expect.links.empty());
  CHECK_FALSE(manifest::to_json(m)["expect"].contains("links"));
  CHECK(m.enroot.squash_options == "-comp lzo -noD -exit-on-error");
  CHECK(m.enroot.source_date_epoch == 0);
  CHECK(m.enroot.locale == "C.UTF-8");
  CHECK_FALSE(m.build.recipe.has_value());
  CHECK_FALSE(m.build.context.has_value());
  const auto text = util::read_file(test::data_path("manifest/good_minimal.yaml"));
  REQUIRE(text.has_value());
  CHECK(m.sha256 == util::sha256_hex(*text));
}

TEST_CASE("manifest: every key, in flow and block style") {
  const auto result = test::parse_data("good_full.yaml");
  REQUIRE_MESSAGE(result.has_value(), result.error().message);
  const manifest::Manifest& m = *result;
  CHECK(m.image.name == "ml/shan-training");
  CHECK(m.image.repository == "registry.example.invalid:5000/ml/shan-training");
  CHECK(m.base.image == "registry.example.invalid/nvidia/pytorch:26.06-py3@sha256:"
                        "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
  CHECK(m.base.platform == "linux/arm64/v8");
  CHECK(m.sources.at("megatron").git == "ssh://git@git.example.invalid/nvidia/megatron-lm.git");
  CHECK(m.sources.at("megatron").ref == "0123abc");
  CHECK(m.python.project == "./py");
  CHECK(m.python.uv.sha256 == "cfaab1b5166a6439ff66f020333d3a12bbdf622deee3b510718283e8f06c9de7");
  CHECK(m.python.sync_args == std::vector<std::string>{"--extra", "mlm"});
  CHECK(m.build.args ==
        std::map<std::string, std::string>{{"NCCL_VERSION", "2.30.7-1+cuda13.3"}, {"_PLAIN", "7"}});
  REQUIRE(m.build.recipe.has_value());
  CHECK(m.build.recipe->upstream == "megatron");
  CHECK(m.build.recipe->path == "docker/Dockerfile.ci.dev");
  CHECK(m.build.recipe->target == "main");
  CHECK(m.build.context == std::vector<std::string>{"patches", "configs/train.yaml"});
  // A plain 13.3 is read as its text.
  CHECK(m.expect.cuda == "13.3");
  CHECK(m.expect.nccl == "2.30.7");
  CHECK(m.expect.pytorch == "2.13.0a0+8145d630e8");
  CHECK(m.expect.python == "3.12");
  CHECK(m.expect.gpus.count == 8);
  CHECK(m.expect.gpus.model == "NVIDIA B200");
  CHECK(m.expect.nccl_busbw_gbps ==
        std::map<std::string, double>{{"NVIDIA B200", 350.0}, {"NVIDIA H200", 312.5}});
  // host and resume are typed; a quoted "580.95" stays a text, a plain 8 a number.
  CHECK(lock::host_expect_to_json(m.expect.host) ==
        nlohmann::json::parse(R"({"driver": "580.95", "kernel": ">=6.8,<6.9",
      "os": ["Ubuntu 24.04", "Ubuntu 22.04"], "gpu.count": 8})"));
  CHECK(lock::resume_expect_to_json(m.expect.resume) ==
        nlohmann::json::parse(R"({"loss_rel": 0.001, "steps": 20})"));
  REQUIRE(m.expect.health.has_value());
  CHECK(lock::health_expect_to_json(*m.expect.health) ==
        nlohmann::json::parse(R"({"pcie_gen": 5, "pcie_width": 16, "nvlink_links": 18,
      "ib_ports": 8, "ib_rate_gbps": 400, "ib_link_layer": "InfiniBand",
      "tolerated_xids": [13, 31], "fabric_manager": true})"));
  // links: typed by model, numbers as declared (600 stays an integer).
  REQUIRE(m.expect.links.size() == 2);
  const lock::LinkMinimums& b200 = m.expect.links.at("NVIDIA B200");
  CHECK(b200.peer_gbps == lock::DeclaredNumber{600, true});
  CHECK(b200.host_to_device_gbps == lock::DeclaredNumber{50.5, false});
  CHECK_FALSE(b200.device_to_host_gbps.has_value());
  CHECK(lock::links_expect_to_json(m.expect.links).dump() ==
        R"({"NVIDIA B200":{"host_to_device_gbps":50.5,"peer_gbps":600},)"
        R"("NVIDIA H200":{"device_to_host_gbps":40}})");
  CHECK(m.enroot.squash_options == "-comp zstd -noD");
  CHECK(m.enroot.source_date_epoch == 1700000000);
}

TEST_CASE("manifest: build.recipe may be the string 'template'") {
  const auto text = util::read_file(test::data_path("manifest/good_minimal.yaml"));
  REQUIRE(text.has_value());
  const auto result = manifest::parse_manifest(*text + "build:\n  recipe: template\n", "m.yaml");
  REQUIRE_MESSAGE(result.has_value(), result.error().message);
  CHECK(result->build.recipe_template);
  CHECK_FALSE(result->build.recipe.has_value());
  CHECK(manifest::to_json(*result)["build"]["recipe"] == "template");
}

TEST_CASE("manifest: relative paths start at the manifest's folder") {
  util::TempDir tmp = test::temp_dir();
  const auto text = util::read_file(test::data_path("manifest/good_full.yaml"));
  REQUIRE(text.has_value());
  test::write_text(tmp.path() / "envs" / "envlock.yaml", *text);
  const auto result = manifest::load_manifest(tmp.path() / "envs" / ".." / "envs/envlock.yaml");
  REQUIRE_MESSAGE(result.has_value(), result.error().message);
  const manifest::Manifest& m = *result;
  CHECK(m.dir == tmp.path() / "envs");
  CHECK(manifest::resolve_path(m, m.python.project) == tmp.path() / "envs" / "py");
  CHECK(manifest::resolve_path(m, ".") == tmp.path() / "envs");
  CHECK(manifest::resolve_path(m, "../megatron") == tmp.path() / "megatron");
  CHECK(manifest::resolve_path(m, "/srv/megatron") == "/srv/megatron");
  // A URL is not a path; a relative or absolute local path is.
  CHECK_FALSE(manifest::local_git_path(m, m.sources.at("megatron")).has_value());
  CHECK_FALSE(
      manifest::local_git_path(m, {"git@git.example.invalid:nvidia/m.git", "main"}).has_value());
  CHECK(manifest::local_git_path(m, {"../megatron", "main"}) == tmp.path() / "megatron");
  CHECK(manifest::local_git_path(m, {"/srv/m:1", "main"}) == "/srv/m:1");

  // Parsed from text, the folder is the file name's folder as given.
  const auto relative = manifest::parse_manifest(*text, "envs/envlock.yaml");
  REQUIRE(relative.has_value());
  CHECK(manifest::resolve_path(*relative, "./py") == "envs/py");
  CHECK(manifest::resolve_path(*relative, ".") == "envs");
}

TEST_CASE("manifest: load_manifest names a file it cannot read") {
  util::TempDir tmp = test::temp_dir();
  const auto missing = manifest::load_manifest(tmp.path() / "envlock.yaml");
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().code == ExitCode::usage);
  CHECK(missing.error().message.find((tmp.path() / "envlock.yaml").string()) == 0);
}

TEST_CASE("manifest: to_json has every field and reads back as the same manifest") {
  for (const char* name : {"good_minimal.yaml", "good_full.yaml"}) {
    CAPTURE(name);
    const auto first = test::parse_data(name);
    REQUIRE(first.has_value());
    const std::string json = util::canonical_json(manifest::to_json(*first));
    const auto second = manifest::parse_manifest(json, "manifest.json");
    REQUIRE_MESSAGE(second.has_value(), second.error().message);
    CHECK(util::canonical_json(manifest::to_json(*second)) == json);
  }
}

TEST_CASE("manifest: enroot.locale C is read, written in the JSON form and read back") {
  auto text = util::read_file(test::data_path("manifest/bad_locale.yaml"));
  REQUIRE(text.has_value());
  const auto at = text->find("en_US.UTF-8");
  REQUIRE(at != std::string::npos);
  text->replace(at, 11, "C");
  const auto m = manifest::parse_manifest(*text, "envlock.yaml");
  REQUIRE_MESSAGE(m.has_value(), m.error().message);
  CHECK(m->enroot.locale == "C");
  const auto json = manifest::to_json(*m);
  CHECK(json["enroot"]["locale"] == "C");
  const auto again = manifest::parse_manifest(util::canonical_json(json), "manifest.json");
  REQUIRE(again.has_value());
  CHECK(again->enroot.locale == "C");
}

TEST_SUITE_END();
