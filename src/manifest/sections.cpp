#include "manifest/sections.hpp"

#include "manifest/formats.hpp"
#include "oci/image_ref.hpp"

#include <vector>

namespace envlock::manifest {

namespace {

// The sources the tool knows; any other name is a typo.
const std::vector<std::string> k_known_sources = {"megatron"};

// The reference `text` of `field` as an image reference; errors carry the oci module's reason.
Result<oci::ImageRef> image_ref(const Reader& reader, const Field& field, const std::string& text) {
  auto ref = oci::parse_image_ref(text);
  if (!ref) {
    return reader.error(field, "'" + field.path + "': " + ref.error().message);
  }
  return ref;
}

Result<GitSource> read_git_source(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(field, {"git", "ref"}));
  GitSource source;
  ENVLOCK_TRY_ASSIGN(const Field git, reader.require(field, "git"));
  ENVLOCK_TRY_ASSIGN(source.git, reader.non_empty_string(git));
  if (has_url_credentials(source.git)) {
    return reader.error(git, "'" + git.path +
                                 "' must not contain credentials; use a git credential helper");
  }
  ENVLOCK_TRY_ASSIGN(const Field ref, reader.require(field, "ref"));
  ENVLOCK_TRY_ASSIGN(source.ref, reader.non_empty_string(ref));
  return source;
}

} // namespace

Result<ImageTarget> read_image(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(field, {"name", "tag", "repository"}));
  ImageTarget image;
  ENVLOCK_TRY_ASSIGN(const Field name, reader.require(field, "name"));
  ENVLOCK_TRY_ASSIGN(image.name, reader.non_empty_string(name));
  if (!is_repository_path(image.name)) {
    return reader.format_error(name, "a lowercase image name (a-z, 0-9, '.', '_', '-', '/')");
  }
  ENVLOCK_TRY_ASSIGN(const Field tag, reader.require(field, "tag"));
  ENVLOCK_TRY_ASSIGN(image.tag, reader.non_empty_string(tag));
  if (!is_image_tag(image.tag)) {
    return reader.format_error(tag, "an image tag (at most 128 of A-Z, a-z, 0-9, '_', '.', '-', "
                                    "not starting with '.' or '-')");
  }
  if (const auto repository = reader.find(field, "repository")) {
    ENVLOCK_TRY_ASSIGN(image.repository, reader.string(*repository));
    if (!image.repository.empty()) {
      ENVLOCK_TRY_ASSIGN(const auto ref, image_ref(reader, *repository, image.repository));
      if (!ref.tag.empty() || !ref.digest.empty()) {
        return reader.format_error(*repository, "a repository without a tag or digest");
      }
    }
  }
  return image;
}

Result<Base> read_base(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(field, {"image", "platform"}));
  Base base;
  ENVLOCK_TRY_ASSIGN(const Field image, reader.require(field, "image"));
  ENVLOCK_TRY_ASSIGN(base.image, reader.non_empty_string(image));
  ENVLOCK_TRY_ASSIGN(const auto ref, image_ref(reader, image, base.image));
  if (ref.tag.empty() && ref.digest.empty()) {
    return reader.format_error(image, "an image with a tag or a digest (NAME:TAG, NAME:TAG@DIGEST "
                                      "or NAME@DIGEST)");
  }
  if (const auto platform = reader.find(field, "platform")) {
    ENVLOCK_TRY_ASSIGN(base.platform, reader.string(*platform));
    if (!is_platform(base.platform)) {
      return reader.format_error(*platform, "os/arch[/variant] in lowercase, e.g. linux/amd64");
    }
  }
  return base;
}

Result<std::map<std::string, GitSource>> read_sources(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(field, k_known_sources));
  ENVLOCK_TRY(reader.require(field, "megatron"));
  std::map<std::string, GitSource> sources;
  for (const auto& entry : reader.entries(field)) {
    ENVLOCK_TRY_ASSIGN(sources[entry.key.Scalar()], read_git_source(reader, entry));
  }
  return sources;
}

Result<Python> read_python(const Reader& reader, const Field& field) {
  ENVLOCK_TRY(reader.mapping(field));
  ENVLOCK_TRY(reader.only_keys(field, {"project", "uv", "sync_args"}));
  Python python;
  if (const auto project = reader.find(field, "project")) {
    ENVLOCK_TRY_ASSIGN(python.project, reader.non_empty_string(*project));
  }
  ENVLOCK_TRY_ASSIGN(const Field uv, reader.require(field, "uv"));
  ENVLOCK_TRY(reader.mapping(uv));
  ENVLOCK_TRY(reader.only_keys(uv, {"version", "sha256"}));
  ENVLOCK_TRY_ASSIGN(const Field version, reader.require(uv, "version"));
  ENVLOCK_TRY_ASSIGN(python.uv.version, reader.non_empty_string(version));
  if (!is_major_minor_patch(python.uv.version)) {
    return reader.format_error(version, "a version X.Y.Z, e.g. 0.7.2");
  }
  if (const auto sha256 = reader.find(uv, "sha256")) {
    ENVLOCK_TRY_ASSIGN(python.uv.sha256, reader.string(*sha256));
    if (!python.uv.sha256.empty() && !is_sha256_hex(python.uv.sha256)) {
      return reader.format_error(*sha256, "64 lowercase hex digits");
    }
  }
  if (const auto sync_args = reader.find(field, "sync_args")) {
    ENVLOCK_TRY_ASSIGN(python.sync_args, reader.string_list(*sync_args));
  }
  return python;
}

} // namespace envlock::manifest
