// An image no configured lock pins: the policy decides. `refuse` (the default) fails the get
// naming the policy and where it was set; `warn` says so on standard error and imports the
// image as Enroot would, its tag resolved through the registry, with Enroot's default squash
// options and SOURCE_DATE_EPOCH 0, and nothing to check the result against.
#pragma once

#include "importer/image_uri.hpp"
#include "importer/importer.hpp"
#include "importer/pins.hpp"
#include "util/result.hpp"

#include <string>

namespace envlock::importer {

// Applies the policy to `problem` ("URI: … is pinned by no lock"): a check failure (exit 1)
// under refuse, a warning under warn.
Status apply_policy(const Context& context, const Catalogue& catalogue, const std::string& problem);

// The pin an unpinned image gets under policy warn (after apply_policy), its digest from the
// registry; an environment error when the registry cannot be asked.
Result<Pin> unpinned_image(const Context& context, const Catalogue& catalogue, const ImageUri& uri);

// This machine's OCI platform: linux/amd64 or linux/arm64 (from uname).
std::string host_platform();

} // namespace envlock::importer
