#include "importer/pins.hpp"

#include "formats/build_result.hpp"
#include "importer/trusted_path.hpp"
#include "lock/lock.hpp"
#include "util/fs.hpp"

#include <algorithm>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_lock_suffix = ".lock.json";

squashfs::SquashSettings settings_of(const lock::Lock& lock) {
  squashfs::SquashSettings settings;
  if (!lock.enroot.squash_options.empty()) {
    settings.squash_options = lock.enroot.squash_options;
  }
  settings.source_date_epoch = lock.enroot.source_date_epoch;
  return settings;
}

// The build result beside the lock (formats::build_result_candidates) that records a pushed
// image built from this very lock.
std::optional<formats::BuildResult> build_result_of(const fs::path& lock_path,
                                                    const std::string& lock_sha256, Trust trust,
                                                    Catalogue& catalogue) {
  for (const auto& candidate : formats::build_result_candidates(lock_path)) {
    if (!util::path_exists(candidate)) {
      continue;
    }
    if (trust == Trust::system) {
      if (auto problem = untrusted_because(candidate)) {
        catalogue.warnings.push_back(*problem + "; build result ignored: a user could forge it");
        continue;
      }
    }
    auto result = formats::read_build_result(candidate);
    if (result && result->pushed && result->lock_sha256 == lock_sha256) {
      return *result;
    }
  }
  return std::nullopt;
}

Status add_lock(const fs::path& path, Catalogue& catalogue, Trust trust) {
  if (trust == Trust::system) {
    if (auto problem = untrusted_because(path)) {
      catalogue.warnings.push_back(*problem +
                                   "; lock ignored, it pins nothing: a user could have planted it");
      return {};
    }
  }
  ENVLOCK_TRY_ASSIGN(const lock::Lock lock, lock::read_lock(path));
  const std::string sha = lock::lock_sha256(lock);
  Pin base;
  base.role = "base_image";
  base.platform = lock.base_image.platform;
  base.lock_path = path;
  base.lock_sha256 = sha;
  base.settings = settings_of(lock);
  Pin common = base;
  ENVLOCK_TRY_ASSIGN(base.image, oci::parse_image_ref(lock.base_image.name));
  base.image.tag = lock.base_image.tag;
  base.image.digest = lock.base_image.digest;
  base.platform_digest = lock.base_image.platform_digest;
  catalogue.pins.push_back(base);

  if (lock.recipe) {
    for (const auto& entry : lock.recipe->images) {
      auto ref = oci::parse_image_ref(entry.image);
      if (!ref) {
        continue;
      }
      Pin pin = common;
      pin.role = "recipe.images[" + std::to_string(entry.line) + "]";
      pin.image = *ref;
      pin.image.digest = entry.digest;
      pin.platform_digest = entry.platform_digest;
      catalogue.pins.push_back(pin);
    }
  }
  if (!lock.image.repository.empty()) {
    if (const auto built = build_result_of(path, sha, trust, catalogue)) {
      ENVLOCK_TRY_ASSIGN(oci::ImageRef ref, oci::parse_image_ref(lock.image.repository));
      Pin pin = common;
      pin.role = "image";
      pin.image = ref;
      pin.image.tag = lock.image.tag;
      pin.image.digest = built->digest;
      pin.platform_digest = built->digest;
      catalogue.pins.push_back(pin);
    }
  }
  catalogue.lock_files.push_back(path);
  return {};
}

bool same_name(const oci::ImageRef& a, const oci::ImageRef& b) {
  return a.registry == b.registry && a.repository == b.repository;
}

} // namespace

Result<Catalogue> read_catalogue(const std::vector<fs::path>& entries, Trust trust) {
  Catalogue catalogue;
  for (const auto& entry : entries) {
    std::error_code ec;
    if (fs::is_directory(entry, ec)) {
      std::vector<fs::path> files;
      for (const auto& item : fs::directory_iterator(entry, ec)) {
        const std::string name = item.path().filename().string();
        if (name.ends_with(k_lock_suffix) && item.is_regular_file(ec)) {
          files.push_back(item.path());
        }
      }
      if (ec) {
        return env_error(entry.string() + ": " + ec.message());
      }
      if (files.empty()) {
        return input_error(entry.string() + ": no *.lock.json in this folder");
      }
      std::sort(files.begin(), files.end());
      for (const auto& file : files) {
        ENVLOCK_TRY(add_lock(file, catalogue, trust));
      }
    } else {
      ENVLOCK_TRY(add_lock(entry, catalogue, trust));
    }
  }
  return catalogue;
}

Result<std::optional<Pin>> find_pin(const Catalogue& catalogue, const ImageUri& uri) {
  const std::string tag = uri.image.tag.empty() ? "latest" : uri.image.tag;
  std::optional<Pin> found;
  for (const auto& pin : catalogue.pins) {
    if (!same_name(pin.image, uri.image)) {
      continue;
    }
    const bool match = uri.image.digest.empty() ? !pin.image.tag.empty() && pin.image.tag == tag
                                                : uri.image.digest == pin.image.digest ||
                                                      uri.image.digest == pin.platform_digest;
    if (!match) {
      continue;
    }
    if (!found) {
      found = pin;
    } else if (found->platform_digest != pin.platform_digest) {
      return input_error(uri.text + ": " + found->lock_path.string() + " pins it to " +
                         found->image.digest + ", " + pin.lock_path.string() + " to " +
                         pin.image.digest + "; remove one of the locks from the configuration");
    }
  }
  return found;
}

std::optional<Pin> find_pin_by_manifest(const Catalogue& catalogue, const std::string& name,
                                        const std::string& manifest_digest) {
  for (const auto& pin : catalogue.pins) {
    if (pin.image.name() == name && pin.platform_digest == manifest_digest) {
      return pin;
    }
  }
  return std::nullopt;
}

} // namespace envlock::importer
