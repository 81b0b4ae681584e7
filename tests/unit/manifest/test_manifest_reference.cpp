// The reference environment, manifests/shan-training.yaml, and the JSON Schema beside it.
#include "manifest_testutil.hpp"
#include "util/json.hpp"
#include "util/process.hpp"

#include <string>
#include <vector>

using namespace envlock;

namespace {

const std::filesystem::path k_manifests = std::filesystem::path(ENVLOCK_SOURCE_DIR) / "manifests";

// Validates YAML files against manifests/envlock.schema.json with python3's jsonschema; one line
// per file: "valid NAME" or "invalid NAME". Nothing when python3, yaml or jsonschema is missing.
std::optional<std::string> schema_verdicts(const std::vector<std::filesystem::path>& files) {
  const char* script = R"(import json, sys
try:
    import jsonschema, yaml
except ImportError:
    sys.exit(77)
schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft202012Validator(schema)
for name in sys.argv[2:]:
    document = yaml.safe_load(open(name))
    print(("valid " if validator.is_valid(document) else "invalid ") + name.split("/")[-1])
)";
  std::vector<std::string> argv = {"python3", "-c", script,
                                   (k_manifests / "envlock.schema.json").string()};
  for (const auto& file : files) {
    argv.push_back(file.string());
  }
  const auto run = util::run_process(argv);
  if (!run.has_value() || run->exit_code == 77) {
    return std::nullopt;
  }
  REQUIRE_MESSAGE(run->exit_code == 0, run->err);
  return run->out;
}

} // namespace

TEST_SUITE_BEGIN("manifest");

TEST_CASE("manifest: the reference environment parses") {
  const auto result = manifest::load_manifest(k_manifests / "shan-training.yaml");
  REQUIRE_MESSAGE(result.has_value(), result.error().message);
  const manifest::Manifest& m = *result;
  CHECK(m.image.name == "shan-training");
  CHECK(m.image.tag == "mc0.19.2-cu13.3");
  CHECK(m.base.image == "nvcr.io/nvidia/pytorch:26.06-py3");
  CHECK(m.sources.at("megatron").git == "https://github.com/NVIDIA/Megatron-LM.git");
  CHECK(m.sources.at("megatron").ref == "core_v0.19.2");
  CHECK(m.python.uv.version == "0.7.2");
  CHECK(m.python.sync_args == std::vector<std::string>{"--extra", "mlm", "--extra", "te"});
  CHECK(m.build.args.at("NCCL_VERSION") == "2.30.7-1+cuda13.3");
  CHECK(m.expect.cuda == "13.3");
  CHECK(m.expect.gpus.count == 8);
  CHECK(manifest::resolve_path(m, m.python.project) == k_manifests.lexically_normal());
}

TEST_CASE("manifest: to_json of the reference environment, byte for byte") {
  const auto result = manifest::load_manifest(k_manifests / "shan-training.yaml");
  REQUIRE(result.has_value());
  const std::string json = util::canonical_json(manifest::to_json(*result));
  const auto expected = util::read_file(test::data_path("manifest/shan-training.json"));
  REQUIRE(expected.has_value());
  CHECK(json == *expected);
  // The JSON form is a manifest too, and reads back to the same bytes.
  const auto again = manifest::parse_manifest(json, "shan-training.json");
  REQUIRE_MESSAGE(again.has_value(), again.error().message);
  CHECK(util::canonical_json(manifest::to_json(*again)) == json);
}

TEST_CASE("manifest: the JSON Schema agrees with the parser") {
  // Files the parser accepts must validate; files it refuses for a schema-expressible reason
  // must not. (Duplicate keys, limits and YAML syntax are beyond a JSON Schema.)
  const std::vector<std::string> good = {"good_minimal.yaml", "good_full.yaml"};
  const std::vector<std::string> bad = {"bad_unknown_key.yaml",
                                        "bad_unknown_nested_key.yaml",
                                        "bad_type_integer.yaml",
                                        "bad_type_mapping.yaml",
                                        "bad_type_list.yaml",
                                        "bad_recipe_enum.yaml",
                                        "bad_missing_nested_key.yaml",
                                        "bad_missing_top_key.yaml",
                                        "bad_schema_version.yaml",
                                        "bad_image_untagged.yaml",
                                        "bad_image_tag.yaml",
                                        "bad_image_name.yaml",
                                        "bad_cuda_version.yaml",
                                        "bad_uv_version.yaml",
                                        "bad_uv_sha256.yaml",
                                        "bad_platform.yaml",
                                        "bad_epoch.yaml",
                                        "bad_epoch_range.yaml",
                                        "bad_busbw.yaml",
                                        "bad_links_key.yaml",
                                        "bad_links_value.yaml",
                                        "bad_build_arg_name.yaml",
                                        "bad_unknown_source.yaml",
                                        "bad_host_type.yaml",
                                        "bad_health_key.yaml",
                                        "bad_training_outside.yaml",
                                        "bad_training_data_suffix.yaml",
                                        "bad_training_unknown_key.yaml",
                                        "bad_training_tokenizer_type.yaml",
                                        "bad_launch_directory.yaml"};
  std::vector<std::filesystem::path> files = {k_manifests / "shan-training.yaml"};
  std::string expected = "valid shan-training.yaml\n";
  for (const auto& name : good) {
    files.push_back(test::data_path("manifest/" + name));
    expected += "valid " + name + "\n";
  }
  for (const auto& name : bad) {
    files.push_back(test::data_path("manifest/" + name));
    expected += "invalid " + name + "\n";
  }
  const auto verdicts = schema_verdicts(files);
  if (!verdicts) {
    MESSAGE("skipped: python3 with the jsonschema and yaml modules is not available");
    return;
  }
  CHECK(*verdicts == expected);
}

TEST_SUITE_END();
