// Every error class, word for word: the message, the source line and the caret. Each
// tests/data/manifest/bad_*.yaml says in its first line what is wrong with it.
#include "manifest_testutil.hpp"

using namespace envlock;

TEST_SUITE_BEGIN("manifest");

TEST_CASE("manifest error: A build argument name with a dash.") {
  CHECK(test::parse_error("bad_build_arg_name.yaml") ==
        "bad_build_arg_name.yaml:16:5: 'NCCL-VERSION' is not a build argument name "
        "([A-Za-z_][A-Za-z0-9_]*)\n"
        "    NCCL-VERSION: 2.30.7-1+cuda13.3\n"
        "    ^");
}

TEST_CASE("manifest error: A minimum bandwidth that is not positive.") {
  CHECK(test::parse_error("bad_busbw.yaml") ==
        "bad_busbw.yaml:15:36: 'expect.nccl_busbw_gbps.NVIDIA B200' must be a positive number of "
        "GB/s, got '0'\n"
        "  nccl_busbw_gbps: {\"NVIDIA B200\": 0}\n"
        "                                   ^");
}

TEST_CASE("manifest error: A link minimum under a key the link check does not know.") {
  CHECK(test::parse_error("bad_links_key.yaml") ==
        "bad_links_key.yaml:16:19: unknown key 'peer_gbs' in 'expect.links.NVIDIA H200'; did you "
        "mean 'peer_gbps'?\n"
        "    NVIDIA H200: {peer_gbs: 300}\n"
        "                  ^");
}

TEST_CASE("manifest error: A link minimum that is not positive.") {
  CHECK(test::parse_error("bad_links_value.yaml") ==
        "bad_links_value.yaml:16:40: 'expect.links.NVIDIA H200.host_to_device_gbps' must be a "
        "positive number of GB/s, got '0'\n"
        "    NVIDIA H200: {host_to_device_gbps: 0}\n"
        "                                       ^");
}

TEST_CASE("manifest error: expect.cuda is MAJOR.MINOR.") {
  CHECK(test::parse_error("bad_cuda_version.yaml") ==
        "bad_cuda_version.yaml:15:9: 'expect.cuda' must be MAJOR.MINOR, e.g. 13.3, got '13'\n"
        "  cuda: \"13\"\n"
        "        ^");
}

TEST_CASE("manifest error: The same key twice in one mapping.") {
  CHECK(test::parse_error("bad_duplicate_key.yaml") ==
        "bad_duplicate_key.yaml:6:3: duplicate key 'tag' in 'image'; first defined at line 5\n"
        "  tag: mc0.19.2-cu13.4\n"
        "  ^");
}

TEST_CASE("manifest error: Nothing but this comment.") {
  CHECK(
      test::parse_error("bad_empty.yaml") ==
      "bad_empty.yaml: the manifest is empty; it must be a mapping that starts with 'envlock: 1'");
}

TEST_CASE("manifest error: enroot.source_date_epoch is a non-negative integer.") {
  CHECK(
      test::parse_error("bad_epoch.yaml") ==
      "bad_epoch.yaml:15:22: 'enroot.source_date_epoch' must be a non-negative integer, got '-1'\n"
      "  source_date_epoch: -1\n"
      "                     ^");
}

TEST_CASE("manifest error: enroot.source_date_epoch fits a squashfs inode time.") {
  CHECK(test::parse_error("bad_epoch_range.yaml") ==
        "bad_epoch_range.yaml:15:22: 'enroot.source_date_epoch' must be at most 4294967295 (a "
        "squashfs inode time), got '4294967296'\n"
        "  source_date_epoch: 4294967296\n"
        "                     ^");
}

TEST_CASE("manifest error: enroot.locale is C.UTF-8 or C.") {
  CHECK(test::parse_error("bad_locale.yaml") ==
        "bad_locale.yaml:15:11: 'enroot.locale' must be one of C.UTF-8, C, got 'en_US.UTF-8'\n"
        "  locale: en_US.UTF-8\n"
        "          ^");
}

TEST_CASE("manifest error: A git URL with a token in it; the message must not show it.") {
  CHECK(test::parse_error("bad_git_credentials.yaml") ==
        "bad_git_credentials.yaml:10:10: 'sources.megatron.git' must not contain credentials; use "
        "a git credential helper\n"
        "    git: https://***@git.example.invalid/nvidia/megatron-lm.git\n"
        "         ^");
}

TEST_CASE("manifest error: a byte that is not UTF-8 is named with its position.") {
  CHECK(test::parse_error("bad_utf8.yaml") ==
        "bad_utf8.yaml:4:16: invalid UTF-8 (byte 0xFF); a manifest is UTF-8 text\n"
        "  name: shan-tr\xff"
        "aining\n"
        "               ^");
}

TEST_CASE("manifest error: a stray comma is an error, not endless documents.") {
  CHECK(test::parse_error("bad_stray_comma.yaml") ==
        "bad_stray_comma.yaml:2:1: invalid YAML: unexpected character at the start of a node\n"
        ",\n"
        "^");
}

TEST_CASE("manifest error: expect.host must be a mapping.") {
  CHECK(test::parse_error("bad_host_type.yaml") ==
        "bad_host_type.yaml:15:9: 'expect.host' must be a mapping, got a list\n"
        "  host: [driver]\n"
        "        ^");
}

TEST_CASE("manifest error: A project image name with capitals.") {
  CHECK(test::parse_error("bad_image_name.yaml") ==
        "bad_image_name.yaml:4:9: 'image.name' must be a lowercase image name (a-z, 0-9, '.', '_', "
        "'-', '/'), got 'Shan-Training'\n"
        "  name: Shan-Training\n"
        "        ^");
}

TEST_CASE("manifest error: A base image reference that is not valid.") {
  CHECK(test::parse_error("bad_image_ref.yaml") ==
        "bad_image_ref.yaml:7:10: 'base.image': invalid image reference "
        "'registry.example.invalid/NVIDIA/pytorch:26.06-py3': repository must be lowercase\n"
        "  image: registry.example.invalid/NVIDIA/pytorch:26.06-py3\n"
        "         ^");
}

TEST_CASE("manifest error: A project image tag that is not an OCI tag.") {
  CHECK(test::parse_error("bad_image_tag.yaml") ==
        "bad_image_tag.yaml:5:8: 'image.tag' must be an image tag (at most 128 of A-Z, a-z, 0-9, "
        "'_', '.', '-', not starting with '.' or '-'), got 'mc0.19.2+cu13.3'\n"
        "  tag: mc0.19.2+cu13.3\n"
        "       ^");
}

TEST_CASE("manifest error: A base image without a tag or digest.") {
  CHECK(
      test::parse_error("bad_image_untagged.yaml") ==
      "bad_image_untagged.yaml:7:10: 'base.image' must be an image with a tag or a digest "
      "(NAME:TAG, NAME:TAG@DIGEST or NAME@DIGEST), got 'registry.example.invalid/nvidia/pytorch'\n"
      "  image: registry.example.invalid/nvidia/pytorch\n"
      "         ^");
}

TEST_CASE("manifest error: A section without a required key.") {
  CHECK(test::parse_error("bad_missing_nested_key.yaml") ==
        "bad_missing_nested_key.yaml:4:3: missing required key 'tag' in 'image'\n"
        "  name: shan-training\n"
        "  ^");
}

TEST_CASE("manifest error: A manifest without a required section.") {
  CHECK(test::parse_error("bad_missing_top_key.yaml") ==
        "bad_missing_top_key.yaml:2:1: missing required key 'sources'\n"
        "envlock: 1\n"
        "^");
}

TEST_CASE("manifest error: The schema version is missing.") {
  CHECK(test::parse_error("bad_missing_version.yaml") ==
        "bad_missing_version.yaml:2:1: missing required key 'envlock'\n"
        "image:\n"
        "^");
}

TEST_CASE("manifest error: expect.nccl is MAJOR.MINOR.PATCH.") {
  CHECK(test::parse_error("bad_nccl_version.yaml") ==
        "bad_nccl_version.yaml:15:9: 'expect.nccl' must be MAJOR.MINOR.PATCH, e.g. 2.30.7, got "
        "'2.30'\n"
        "  nccl: 2.30\n"
        "        ^");
}

TEST_CASE("manifest error: A list instead of a mapping.") {
  CHECK(test::parse_error("bad_not_mapping.yaml") ==
        "bad_not_mapping.yaml:2:1: the manifest must be a mapping, got a list\n"
        "- envlock: 1\n"
        "^");
}

TEST_CASE("manifest error: base.platform is os/arch[/variant].") {
  CHECK(test::parse_error("bad_platform.yaml") ==
        "bad_platform.yaml:8:13: 'base.platform' must be os/arch[/variant] in lowercase, e.g. "
        "linux/amd64, got 'amd64'\n"
        "  platform: amd64\n"
        "            ^");
}

TEST_CASE("manifest error: expect.python is MAJOR.MINOR.") {
  CHECK(test::parse_error("bad_python_version.yaml") ==
        "bad_python_version.yaml:15:11: 'expect.python' must be MAJOR.MINOR, e.g. 3.12, got "
        "'3.12.1'\n"
        "  python: 3.12.1\n"
        "          ^");
}

TEST_CASE("manifest error: expect.pytorch starts with MAJOR.MINOR.") {
  CHECK(test::parse_error("bad_pytorch_version.yaml") ==
        "bad_pytorch_version.yaml:15:12: 'expect.pytorch' must be a version starting with "
        "MAJOR.MINOR, e.g. 2.13.0a0+8145d630e8, got 'latest'\n"
        "  pytorch: latest\n"
        "           ^");
}

TEST_CASE("manifest error: An enum value that is not accepted.") {
  CHECK(test::parse_error("bad_recipe_enum.yaml") ==
        "bad_recipe_enum.yaml:15:11: 'build.recipe' must be 'template' or a mapping with keys "
        "upstream, path and target, got 'dockerfile'\n"
        "  recipe: dockerfile\n"
        "          ^");
}

TEST_CASE("manifest error: A push repository with a tag.") {
  CHECK(test::parse_error("bad_repository_tag.yaml") ==
        "bad_repository_tag.yaml:6:15: 'image.repository' must be a repository without a tag or "
        "digest, got 'registry.example.invalid/ml/shan-training:latest'\n"
        "  repository: registry.example.invalid/ml/shan-training:latest\n"
        "              ^");
}

TEST_CASE("manifest error: A schema version this envlock does not read.") {
  CHECK(test::parse_error("bad_schema_version.yaml") ==
        "bad_schema_version.yaml:2:10: unsupported schema version 2 (this envlock reads 1)\n"
        "envlock: 2\n"
        "         ^");
}

TEST_CASE("manifest error: The schema version quoted.") {
  CHECK(test::parse_error("bad_schema_version_type.yaml") ==
        "bad_schema_version_type.yaml:2:10: 'envlock' must be an integer, got a string\n"
        "envlock: \"1\"\n"
        "         ^");
}

TEST_CASE("manifest error: A flow sequence that is never closed.") {
  CHECK(test::parse_error("bad_syntax.yaml") ==
        "bad_syntax.yaml:15:7: invalid YAML: end of sequence flow not found\n"
        "expect:\n"
        "      ^");
}

TEST_CASE("manifest error: A tab used for indentation.") {
  CHECK(test::parse_error("bad_tab_indent.yaml") ==
        "bad_tab_indent.yaml:15:6: invalid YAML: illegal map value\n"
        "\tcuda: \"13.3\"\n"
        "\t    ^");
}

TEST_CASE("manifest error: Two YAML documents in one file.") {
  CHECK(test::parse_error("bad_two_documents.yaml") ==
        "bad_two_documents.yaml:15:1: more than one YAML document; a manifest is one mapping\n"
        "envlock: 1\n"
        "^");
}

TEST_CASE("manifest error: A quoted number where an integer is expected.") {
  CHECK(test::parse_error("bad_type_integer.yaml") ==
        "bad_type_integer.yaml:15:17: 'expect.gpus.count' must be a non-negative integer, got a "
        "string\n"
        "  gpus: {count: \"8\", model: NVIDIA B200}\n"
        "                ^");
}

TEST_CASE("manifest error: A string where a list is expected.") {
  CHECK(test::parse_error("bad_type_list.yaml") ==
        "bad_type_list.yaml:14:14: 'python.sync_args' must be a list of strings, got a string\n"
        "  sync_args: --extra mlm\n"
        "             ^");
}

TEST_CASE("manifest error: A string where a mapping is expected.") {
  CHECK(test::parse_error("bad_type_mapping.yaml") ==
        "bad_type_mapping.yaml:3:8: 'image' must be a mapping, got a string\n"
        "image: shan-training:mc0.19.2-cu13.3\n"
        "       ^");
}

TEST_CASE("manifest error: A key without a value.") {
  CHECK(test::parse_error("bad_type_null.yaml") ==
        "bad_type_null.yaml:5:3: 'image.tag' must be a string, got null\n"
        "  tag:\n"
        "  ^");
}

TEST_CASE("manifest error: A misspelt top-level key.") {
  CHECK(test::parse_error("bad_unknown_key.yaml") ==
        "bad_unknown_key.yaml:14:1: unknown key 'expcet'; did you mean 'expect'?\n"
        "expcet:\n"
        "^");
}

TEST_CASE("manifest error: An unknown key with no close match: the accepted keys are listed.") {
  CHECK(test::parse_error("bad_unknown_key_no_match.yaml") ==
        "bad_unknown_key_no_match.yaml:7:3: unknown key 'colour' in 'base'; accepted keys: image, "
        "platform\n"
        "  colour: red\n"
        "  ^");
}

TEST_CASE("manifest error: A misspelt key inside a section.") {
  CHECK(test::parse_error("bad_unknown_nested_key.yaml") ==
        "bad_unknown_nested_key.yaml:4:3: unknown key 'nmae' in 'image'; did you mean 'name'?\n"
        "  nmae: shan-training\n"
        "  ^");
}

TEST_CASE("manifest error: A misspelt host fact is refused when locking, not on the cluster.") {
  CHECK(test::parse_error("bad_host_fact_key.yaml") ==
        "bad_host_fact_key.yaml:16:5: unknown key 'kernal' in 'expect.host'; did you mean "
        "'kernel'?\n"
        "    kernal: \">=6.8\"\n"
        "    ^");
}

TEST_CASE("manifest error: A source the tool does not know.") {
  CHECK(test::parse_error("bad_unknown_source.yaml") ==
        "bad_unknown_source.yaml:12:3: unknown key 'megatorn' in 'sources'; did you mean "
        "'megatron'?\n"
        "  megatorn:\n"
        "  ^");
}

TEST_CASE("manifest error: python.uv.sha256 is 64 lowercase hex digits.") {
  CHECK(test::parse_error("bad_uv_sha256.yaml") ==
        "bad_uv_sha256.yaml:13:32: 'python.uv.sha256' must be 64 lowercase hex digits, got "
        "'CFAAB1B5166A6439FF66F020333D3A12BBDF622DEEE3B510718283E8F06C9DE7'\n"
        "  uv: {version: 0.7.2, sha256: "
        "CFAAB1B5166A6439FF66F020333D3A12BBDF622DEEE3B510718283E8F06C9DE7}\n"
        "                               ^");
}

TEST_CASE("manifest error: python.uv.version is X.Y.Z.") {
  CHECK(test::parse_error("bad_uv_version.yaml") ==
        "bad_uv_version.yaml:13:17: 'python.uv.version' must be a version X.Y.Z, e.g. 0.7.2, got "
        "'0.7'\n"
        "  uv: {version: 0.7}\n"
        "                ^");
}

TEST_CASE("manifest error: A YAML tag outside the core schema.") {
  CHECK(test::parse_error("bad_yaml_tag.yaml") ==
        "bad_yaml_tag.yaml:5:8: unsupported YAML tag '!secret'\n"
        "  tag: !secret mc0.19.2-cu13.3\n"
        "       ^");
}

TEST_CASE("manifest error: a secret in a git URL is not shown") {
  const std::string message = test::parse_error("bad_git_credentials.yaml");
  CHECK(message.find("s3cr3t") == std::string::npos);
  CHECK(message.find("oauth2") == std::string::npos);
}

TEST_SUITE_END();
