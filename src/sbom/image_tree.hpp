// Where `envlock sbom` gets the image's tree: a folder given as it is (--root), a .sqsh unpacked
// with unsquashfs (--sqsh), or an image pulled by digest from its registry and unpacked as
// `envlock squashfs` would (--image). The two last ones go into a temporary folder that lives as
// long as the ImageTree.
#pragma once

#include "oci/image_ref.hpp"
#include "oci/registry.hpp"
#include "sbom/collect.hpp"
#include "util/fs.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace envlock::sbom {

struct ImageTree {
  std::filesystem::path root;
  ImageFacts facts;
  std::vector<std::string> notes; // for standard error: what was found beside the input
  std::optional<util::TempDir> scratch;
};

// The folder itself; no facts beyond it.
Result<ImageTree> tree_of_folder(const std::filesystem::path& dir);

// unsquashfs of the file into a temporary folder; its sha256, and the image it was squashed from
// when a squashfs result beside it names it. An input error when it is no squashfs image;
// an environment error when unsquashfs is missing or fails.
Result<ImageTree> tree_of_sqsh(const std::filesystem::path& sqsh);

// The image's layers for `platform`, pulled by digest and applied. An input error when `image`
// carries no digest.
Result<ImageTree> tree_of_image(const oci::ImageRef& image, const std::string& platform,
                                const oci::RegistryOptions& options, lock::EnrootLocale locale);

} // namespace envlock::sbom
