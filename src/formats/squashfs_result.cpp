#include "formats/squashfs_result.hpp"

#include "util/fs.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <system_error>

namespace envlock::formats {

namespace fs = std::filesystem;
using nlohmann::json;
using util::FieldReader;
using util::Presence;

namespace {

constexpr std::array<const char*, 7> k_compressions = {"",   "gzip", "lzma", "lzo",
                                                       "xz", "lz4",  "zstd"};

// The id of a compression name as compression_name() writes it; nothing for another text.
std::optional<std::uint16_t> compression_id(const std::string& name) {
  for (std::size_t i = 1; i < k_compressions.size(); ++i) {
    if (name == k_compressions[i]) {
      return static_cast<std::uint16_t>(i);
    }
  }
  const std::string prefix = "unknown(";
  if (name.starts_with(prefix) && name.ends_with(")") && name.size() > prefix.size() + 1 &&
      name.size() <= prefix.size() + 6) {
    const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - 1);
    if (std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      const unsigned long id = std::stoul(digits);
      if (id <= 0xffff && compression_name(static_cast<std::uint16_t>(id)) == name) {
        return static_cast<std::uint16_t>(id);
      }
    }
  }
  return std::nullopt;
}

template <class T> T read_unsigned(FieldReader& r, const char* key) {
  const std::uint64_t value = r.uinteger(key);
  if (!r.error() && value > std::numeric_limits<T>::max()) {
    r.fail(r.join(key), "must be at most " + std::to_string(std::numeric_limits<T>::max()));
  }
  return static_cast<T>(value);
}

SquashfsSuperblock read_superblock_fields(FieldReader& r) {
  SquashfsSuperblock sb;
  sb.block_size = read_unsigned<std::uint32_t>(r, "block_size");
  sb.bytes_used = r.uinteger("bytes_used");
  const std::string compression = r.str("compression");
  if (const auto id = compression_id(compression)) {
    sb.compression = *id;
  } else if (!r.error()) {
    r.fail(r.join("compression"), "'" + compression + "' is not a squashfs compression");
  }
  sb.flags = read_unsigned<std::uint16_t>(r, "flags");
  sb.fragment_count = read_unsigned<std::uint32_t>(r, "fragment_count");
  sb.id_count = read_unsigned<std::uint16_t>(r, "id_count");
  sb.inode_count = read_unsigned<std::uint32_t>(r, "inode_count");
  sb.mkfs_time = read_unsigned<std::uint32_t>(r, "mkfs_time");
  const std::string version = r.str("version");
  const auto dot = version.find('.');
  const auto is_number = [](const std::string& text) {
    return !text.empty() && text.size() < 6 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  if (dot != std::string::npos && is_number(version.substr(0, dot)) &&
      is_number(version.substr(dot + 1))) {
    sb.version_major = static_cast<std::uint16_t>(std::stoul(version.substr(0, dot)));
    sb.version_minor = static_cast<std::uint16_t>(std::stoul(version.substr(dot + 1)));
  } else if (!r.error()) {
    r.fail(r.join("version"), "'" + version + "' is not MAJOR.MINOR");
  }
  for (std::uint32_t size = sb.block_size; size > 1; size >>= 1) {
    ++sb.block_log;
  }
  return sb;
}

bool is_result_name(const std::string& name) {
  return name == k_squashfs_result_file || name.ends_with(k_squashfs_result_suffix);
}

} // namespace

std::string compression_name(std::uint16_t id) {
  if (id >= 1 && id < k_compressions.size()) {
    return k_compressions[id];
  }
  return "unknown(" + std::to_string(id) + ")";
}

json to_json(const SquashfsSuperblock& sb) {
  return {
      {"block_size", sb.block_size},
      {"bytes_used", sb.bytes_used},
      {"compression", compression_name(sb.compression)},
      {"flags", sb.flags},
      {"fragment_count", sb.fragment_count},
      {"id_count", sb.id_count},
      {"inode_count", sb.inode_count},
      {"mkfs_time", sb.mkfs_time},
      {"version", std::to_string(sb.version_major) + "." + std::to_string(sb.version_minor)},
  };
}

json to_json(const SquashfsResult& r) {
  return {
      {"schema", k_squashfs_result_schema},
      {"image",
       {{"reference", r.image_reference},
        {"manifest_digest", r.manifest_digest},
        {"platform", r.platform}}},
      {"sqsh", {{"file", r.file_name}, {"sha256", r.sha256}, {"size", r.size}}},
      {"tree_digest", r.tree_digest},
      {"producer", r.producer},
      {"enroot",
       {{"compatible_with", r.enroot_compatible_with},
        {"squash_options", r.squash_options},
        {"source_date_epoch", r.source_date_epoch},
        {"locale", lock::to_string(r.locale)}}},
      {"squashfs_tools",
       {{"version", r.squashfs_tools_version}, {"mksquashfs_arguments", r.mksquashfs_arguments}}},
      {"superblock", to_json(r.superblock)},
  };
}

template <>
Result<SquashfsResult> from_json<SquashfsResult>(const json& value, const std::string& origin) {
  FieldReader r(value, origin, "", "the squashfs result");
  read_schema(r, k_squashfs_result_schema);
  SquashfsResult out;
  FieldReader image = r.sub("image");
  out.image_reference = image.str("reference");
  out.manifest_digest = image.str("manifest_digest");
  out.platform = image.str("platform");
  r.merge(image);
  FieldReader sqsh = r.sub("sqsh");
  out.file_name = sqsh.str("file");
  out.sha256 = sqsh.str("sha256");
  check_sha256(sqsh, "sha256", out.sha256);
  out.size = sqsh.uinteger("size");
  r.merge(sqsh);
  out.tree_digest = r.str("tree_digest");
  out.producer = read_choice(r, "producer", {"envlock", "enroot"});
  FieldReader enroot = r.sub("enroot");
  out.enroot_compatible_with = enroot.str("compatible_with");
  out.squash_options = enroot.str("squash_options");
  out.source_date_epoch = enroot.integer("source_date_epoch");
  if (enroot.any("locale") != nullptr) {
    const std::string locale = enroot.str("locale");
    if (const auto parsed = lock::parse_enroot_locale(locale)) {
      out.locale = *parsed;
    } else if (!enroot.error()) {
      enroot.fail(enroot.join("locale"), "'" + locale + "' is not one of C.UTF-8, C");
    }
  }
  r.merge(enroot);
  FieldReader tools = r.sub("squashfs_tools");
  out.squashfs_tools_version = tools.str("version");
  out.mksquashfs_arguments = tools.strings("mksquashfs_arguments");
  r.merge(tools);
  FieldReader superblock = r.sub("superblock");
  out.superblock = read_superblock_fields(superblock);
  r.merge(superblock);
  ENVLOCK_TRY(r.status());
  return out;
}

Result<SquashfsResult> read_squashfs_result(const fs::path& path) {
  return read_record<SquashfsResult>(path);
}

Status write_squashfs_result(const fs::path& path, const SquashfsResult& result) {
  return util::write_json_file(path, to_json(result));
}

fs::path squashfs_result_path_for(const fs::path& sqsh) {
  std::string name = sqsh.filename().string();
  if (name.ends_with(".sqsh")) {
    name.resize(name.size() - 5);
  }
  return sqsh.parent_path() / (name + k_squashfs_result_suffix);
}

Result<FoundSquashfsResult> find_squashfs_result_beside(const fs::path& sqsh) {
  std::string looked;
  for (const auto& candidate :
       {squashfs_result_path_for(sqsh), sqsh.parent_path() / k_squashfs_result_file}) {
    looked += (looked.empty() ? "" : ", ") + candidate.string();
    if (!util::path_exists(candidate)) {
      continue;
    }
    ENVLOCK_TRY_ASSIGN(SquashfsResult result, read_squashfs_result(candidate));
    if (result.file_name == sqsh.filename().string()) {
      return FoundSquashfsResult{candidate, std::move(result)};
    }
    looked += " (it describes " + result.file_name + ")";
  }
  return input_error("no squashfs result describes " + sqsh.string() + " (looked for " + looked +
                     "); give --result FILE");
}

std::vector<fs::path> squashfs_results_in(const fs::path& folder) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder.empty() ? fs::path(".") : folder, ec)) {
    std::error_code type_ec;
    if (is_result_name(entry.path().filename().string()) && entry.is_regular_file(type_ec)) {
      out.push_back(folder / entry.path().filename());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<fs::path> squashfs_result_in(const fs::path& folder) {
  const auto found = squashfs_results_in(folder);
  if (found.size() != 1) {
    return std::nullopt;
  }
  return found.front();
}

} // namespace envlock::formats
