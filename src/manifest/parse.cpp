#include "manifest/manifest.hpp"
#include "manifest/reader.hpp"
#include "manifest/sections.hpp"
#include "manifest/source_file.hpp"
#include "manifest/yaml_load.hpp"
#include "oci/known_secrets.hpp"
#include "util/fs.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <cstdio>

#include <system_error>

namespace envlock::manifest {

namespace {

constexpr std::int64_t k_schema_version = 1;

Status read_schema_version(const Reader& reader, const Field& root) {
  ENVLOCK_TRY_ASSIGN(const Field field, reader.require(root, "envlock"));
  ENVLOCK_TRY_ASSIGN(const std::int64_t version, reader.integer(field));
  if (version != k_schema_version) {
    return reader.error(field, "unsupported schema version " + std::to_string(version) +
                                   " (this envlock reads " + std::to_string(k_schema_version) +
                                   ")");
  }
  return {};
}

Status read_sections(const Reader& reader, const Field& root, Manifest& manifest) {
  ENVLOCK_TRY(read_schema_version(reader, root));
  ENVLOCK_TRY(reader.only_keys(root, {"envlock", "image", "base", "sources", "python", "build",
                                      "expect", "enroot", "training", "launch"}));
  ENVLOCK_TRY_ASSIGN(const Field image, reader.require(root, "image"));
  ENVLOCK_TRY_ASSIGN(manifest.image, read_image(reader, image));
  ENVLOCK_TRY_ASSIGN(const Field base, reader.require(root, "base"));
  ENVLOCK_TRY_ASSIGN(manifest.base, read_base(reader, base));
  ENVLOCK_TRY_ASSIGN(const Field sources, reader.require(root, "sources"));
  ENVLOCK_TRY_ASSIGN(manifest.sources, read_sources(reader, sources));
  ENVLOCK_TRY_ASSIGN(const Field python, reader.require(root, "python"));
  ENVLOCK_TRY_ASSIGN(manifest.python, read_python(reader, python));
  if (const auto build = reader.find(root, "build")) {
    ENVLOCK_TRY_ASSIGN(manifest.build, read_build(reader, *build));
  }
  if (const auto expect = reader.find(root, "expect")) {
    ENVLOCK_TRY_ASSIGN(manifest.expect, read_expect(reader, *expect));
  }
  if (const auto enroot = reader.find(root, "enroot")) {
    ENVLOCK_TRY_ASSIGN(manifest.enroot, read_enroot(reader, *enroot));
  }
  if (const auto training = reader.find(root, "training")) {
    ENVLOCK_TRY_ASSIGN(manifest.training, read_training(reader, *training));
  }
  if (const auto launch = reader.find(root, "launch")) {
    ENVLOCK_TRY_ASSIGN(manifest.launch, read_launch(reader, *launch));
  }
  return {};
}

} // namespace

Result<Manifest> parse_manifest(std::string_view text, const std::filesystem::path& filename,
                                util::SecretValues secrets) {
  const SourceText source(text, filename.string(), std::move(secrets));
  if (const auto bad = util::invalid_utf8_at(text)) {
    const std::string_view before = text.substr(0, *bad);
    const auto line = static_cast<int>(std::count(before.begin(), before.end(), '\n'));
    const std::size_t line_start =
        before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
    char hex[8];
    (void)std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[*bad]));
    return source.error_at({line, static_cast<int>(*bad - line_start)},
                           std::string("invalid UTF-8 (byte ") + hex +
                               "); a manifest is UTF-8 text");
  }
  ENVLOCK_TRY_ASSIGN(const YAML::Node document, load_yaml(source));
  const Reader reader(source);
  Manifest manifest;
  manifest.path = filename;
  manifest.dir = filename.parent_path();
  manifest.sha256 = util::sha256_hex(text);
  ENVLOCK_TRY(read_sections(reader, root_field(document), manifest));
  return manifest;
}

Result<Manifest> load_manifest(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > k_max_manifest_bytes) {
    return input_error(path.string() + ": the manifest is " + std::to_string(size) +
                       " bytes; the limit is 1 MiB (" + std::to_string(k_max_manifest_bytes) +
                       " bytes)");
  }
  ENVLOCK_TRY_ASSIGN(const std::string text,
                     read_source_file(path, k_max_manifest_bytes, LinkRule::inside_project));
  ENVLOCK_TRY_ASSIGN(Manifest manifest, parse_manifest(text, path, oci::known_secrets()));
  const auto absolute = std::filesystem::absolute(path, ec);
  if (!ec) {
    manifest.dir = absolute.lexically_normal().parent_path();
  }
  return manifest;
}

} // namespace envlock::manifest
