// The parts of an image manifest and an image config that the squashfs pipeline reads. Parsing
// is pure: JSON text in, values out; errors name `origin` (exit 2).
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace envlock::squashfs {

struct LayerDescriptor {
  std::string digest;
  std::string media_type;
  std::int64_t size = 0;
};

struct ImageManifest {
  std::string config_digest;
  std::optional<std::uint64_t> config_size; // when the descriptor gives it
  std::vector<LayerDescriptor> layers;      // base layer first
};

// What Enroot reads from the config to write /etc/rc, /etc/environment and /etc/fstab.
struct ImageConfig {
  std::string architecture;
  std::vector<std::string> env;
  std::vector<std::string> entrypoint;
  std::vector<std::string> cmd;
  std::string working_dir;
  std::vector<std::pair<std::string, std::string>> labels; // in the config's own key order
  std::vector<std::string> volumes;                        // sorted, as jq's keys[] gives them
};

// Parses an OCI or Docker v2 image manifest. Fails on an index, a missing config, a layer with
// a bad digest or an unsupported media type.
Result<ImageManifest> parse_image_manifest(std::string_view text, std::string_view origin);

// Parses an image config blob. Absent fields are empty, as `jq '... // empty'` treats them.
Result<ImageConfig> parse_image_config(std::string_view text, std::string_view origin);

} // namespace envlock::squashfs
