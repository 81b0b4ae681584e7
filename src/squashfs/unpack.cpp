#include "squashfs/unpack.hpp"

#include "squashfs/enroot_files.hpp"
#include "squashfs/fixperms.hpp"
#include "squashfs/image_config.hpp"
#include "squashfs/rootfs_builder.hpp"

namespace envlock::squashfs {

namespace fs = std::filesystem;

namespace {

// Applies every layer in order, with a progress line.
Status apply_layers(BlobSource& source, const ImageManifest& manifest, RootfsBuilder& builder,
                    ProgressMode mode, const std::string& final_stage) {
  std::uint64_t total = 0;
  for (const auto& layer : manifest.layers) {
    total += static_cast<std::uint64_t>(layer.size);
  }
  ProgressLine progress(mode, total);
  std::uint64_t before = 0;
  for (std::size_t i = 0; i < manifest.layers.size(); ++i) {
    const auto& layer = manifest.layers[i];
    ENVLOCK_TRY_ASSIGN(const fs::path blob,
                       source.blob_file(layer.digest, static_cast<std::uint64_t>(layer.size)));
    const auto report = [&](std::uint64_t bytes) {
      progress.layer(i + 1, manifest.layers.size(), before + bytes);
    };
    ENVLOCK_TRY(builder.apply_layer(blob, layer.digest, report));
    before += static_cast<std::uint64_t>(layer.size);
  }
  progress.stage(final_stage);
  ENVLOCK_TRY(builder.finish());
  ENVLOCK_TRY(fix_permissions(builder.root_fd()));
  progress.done();
  return {};
}

} // namespace

Result<UnpackedImage> unpack_image(BlobSource& source, std::string_view platform,
                                   const fs::path& rootfs, lock::EnrootLocale locale,
                                   ProgressMode progress, const std::string& final_stage) {
  ENVLOCK_TRY_ASSIGN(const ManifestBlob manifest_blob, source.manifest(platform));
  ENVLOCK_TRY_ASSIGN(const ImageManifest manifest,
                     parse_image_manifest(manifest_blob.body, manifest_blob.digest));
  ENVLOCK_TRY_ASSIGN(const fs::path config_path,
                     source.blob_file(manifest.config_digest, manifest.config_size));
  ENVLOCK_TRY_ASSIGN(const std::string config_text,
                     read_verified_blob(config_path, manifest.config_digest));
  ENVLOCK_TRY_ASSIGN(const ImageConfig config,
                     parse_image_config(config_text, manifest.config_digest));
  ENVLOCK_TRY_ASSIGN(RootfsBuilder builder, RootfsBuilder::open(rootfs));
  ENVLOCK_TRY(apply_layers(source, manifest, builder, progress, final_stage));
  ENVLOCK_TRY(write_enroot_files(builder.root_fd(), config, locale));
  UnpackedImage out;
  out.manifest_digest = manifest_blob.digest;
  out.warnings = builder.warnings();
  if (auto warning = workdir_warning(config)) {
    out.warnings.push_back(std::move(*warning));
  }
  return out;
}

} // namespace envlock::squashfs
