// The project the lock tests resolve: a manifest's fields beside a git repository, uv.lock and
// pyproject.toml, and the registry's answers.
#pragma once

#include "../git/git_fixture.hpp"
#include "../testutil.hpp"
#include "manifest/manifest.hpp"
#include "resolve/resolve.hpp"
#include "util/sha256.hpp"

#include <filesystem>
#include <string>

namespace envlock::test {

inline const std::string k_index = "sha256:" + std::string(64, '1');
inline const std::string k_amd64 = "sha256:" + std::string(64, '2');
inline const std::string k_moved = "sha256:" + std::string(64, '3');

// A project beside a git repository: envlock.yaml's fields, uv.lock and pyproject.toml.
struct Project {
  GitFixture git;
  std::filesystem::path dir = git.dir.path();
  manifest::Manifest manifest;

  Project() {
    write_text(dir / "py/uv.lock", "version = 1\nrevision = 2\nrequires-python = \">=3.12\"\n"
                                   "\n[[package]]\nname = \"b\"\nversion = \"1\"\n"
                                   "source = { editable = \".\" }\n");
    // A package (it has a [build-system]), as uv.lock's editable root says.
    write_text(dir / "py/pyproject.toml",
               "[project]\nname = \"b\"\nrequires-python = \">=3.12\"\n\n"
               "[build-system]\nrequires = [\"setuptools\"]\n");
    write_text(dir / "envlock.yaml", "envlock: 1\n");
    manifest.path = dir / "envlock.yaml";
    manifest.dir = dir;
    manifest.sha256 = util::sha256_hex("envlock: 1\n");
    manifest.image = {"train", "v1", "registry.example.invalid/ml/train"};
    manifest.base.image = "registry.example.invalid/nvidia/pytorch:26.06-py3";
    manifest.sources["megatron"] = {"repo", "v2"};
    manifest.python.project = "py";
    manifest.python.uv = {"0.7.2", std::string(64, 'c')};
    manifest.python.sync_args = {"--extra", "dev"};
    manifest.build.args = {{"NCCL_VERSION", "2.30.7"}};
    manifest.expect.cuda = "13.3";
    manifest.enroot.source_date_epoch = 1700000000;
  }
};

// The registry's answers for these tests: the tag points at k_index, or at `tag_digest`.
inline resolve::ImageResolver registry_answers(std::string tag_digest = k_index) {
  return [tag_digest](const oci::ImageRef& image, std::string_view) -> Result<oci::Resolved> {
    const std::string digest = image.digest.empty() ? tag_digest : image.digest;
    return oci::Resolved{digest, oci::media_type::oci_index, k_amd64, "{}"};
  };
}

} // namespace envlock::test
