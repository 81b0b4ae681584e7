// The lock (envlock.lock.json): every floating name of the manifest resolved once. It is the hub
// that every later command reads; docs/formats/lock.md describes each field.
//
// On disk it is canonical JSON (util/json.hpp): sorted keys, 2-space indent, trailing newline,
// written atomically, so locking twice with nothing changed gives identical bytes. This module
// depends on nothing but nlohmann/json, so the node-side verifier can read locks too.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::lock {

inline constexpr const char* k_schema = "envlock.lock/v1";

// An image reference resolved against its registry.
struct ImagePin {
  std::string reference;       // as the manifest wrote it: nvcr.io/nvidia/pytorch:26.06-py3
  std::string name;            // registry/repository, normalised: nvcr.io/nvidia/pytorch
  std::string tag;             // may be empty when the manifest gave a digest only
  std::string digest;          // what the reference points to (the index digest for multi-arch)
  std::string media_type;      // media type of that manifest or index
  std::string platform;        // os/arch[/variant], e.g. linux/amd64
  std::string platform_digest; // the manifest for `platform` (== digest for single-platform)
  bool operator==(const ImagePin&) const = default;
};

// A git source resolved to a commit.
struct GitPin {
  std::string git;    // URL or path as the manifest wrote it
  std::string ref;    // tag, branch or commit as written
  std::string commit; // full 40-hex commit
  bool operator==(const GitPin&) const = default;
};

// One [[package]] of uv.lock.
struct UvPackage {
  std::string name;
  std::string version;         // empty for dynamic-version roots
  std::string source_kind;     // registry, git, url, path, directory, editable, virtual
  std::string source_location; // index URL, git URL with #commit, path, ...
  bool operator==(const UvPackage&) const = default;
};

struct UvLockPin {
  std::string path; // relative to the manifest's folder
  std::string sha256;
  std::int64_t version = 0;  // uv.lock schema version
  std::int64_t revision = 0; // uv.lock revision (0 when absent)
  std::string requires_python;
  std::vector<UvPackage> packages; // sorted by name, then version
  bool operator==(const UvLockPin&) const = default;
};

struct Python {
  std::string project; // folder holding pyproject.toml and uv.lock, relative
  std::string uv_version;
  std::string uv_sha256;
  std::vector<std::string> sync_args;
  UvLockPin uv_lock;
  std::string pyproject_sha256;
  bool operator==(const Python&) const = default;
};

struct GpuExpect {
  std::int64_t count = 0; // 0: not checked
  std::string model;      // empty: not checked
  bool operator==(const GpuExpect&) const = default;
};

// What verification checks later; copied from the manifest's `expect`.
struct Expect {
  std::string cuda;    // "13.3"
  std::string nccl;    // "2.30.7"
  std::string pytorch; // "2.13.0a0+8145d630e8"
  std::string python;  // "3.12"
  GpuExpect gpus;
  // Minimum all-reduce bus bandwidth at 1 GiB, GB/s, by GPU model ("NVIDIA H200": 300).
  std::map<std::string, double> nccl_busbw_gbps;
  // Sections owned by later features (host facts, resume check); kept as given.
  nlohmann::json host = nlohmann::json::object();
  nlohmann::json resume = nlohmann::json::object();
  bool operator==(const Expect&) const = default;
};

// The locale Enroot's bash runs in when it writes /etc/rc: it decides how ${word@Q} quotes the
// non-ASCII bytes of Entrypoint and Cmd. C.UTF-8 leaves printable characters as they are; C
// escapes every byte above 0x7f ($'\303\274'), as an import from a Slurm prolog without LANG does.
enum class EnrootLocale { utf8, c };

// "C.UTF-8" or "C".
const char* to_string(EnrootLocale locale);

// Reads "C.UTF-8" or "C"; nothing for any other text.
std::optional<EnrootLocale> parse_enroot_locale(std::string_view text);

struct Enroot {
  std::string squash_options;
  std::int64_t source_date_epoch = 0;
  EnrootLocale locale = EnrootLocale::utf8; // "locale", written only when C
  bool operator==(const Enroot&) const = default;
};

struct ImageTarget {
  std::string name;
  std::string tag;
  std::string repository;
  bool operator==(const ImageTarget&) const = default;
};

struct Lock {
  std::string manifest_path; // file name of the manifest, relative to the lock's folder
  std::string manifest_sha256;
  ImageTarget image;
  ImagePin base_image;
  std::map<std::string, GitPin> sources; // "megatron" -> pin
  Python python;
  std::map<std::string, std::string> build_args;
  Expect expect;
  Enroot enroot;
  // Sections added by later features (recipe, build context, ...), kept verbatim on a round trip.
  nlohmann::json extra = nlohmann::json::object();
  bool operator==(const Lock&) const = default;
};

// The canonical JSON object of a lock.
nlohmann::json to_json(const Lock& lock);

// Reads a lock object; errors name `origin` and the JSON path of the bad field, e.g.
// "envlock.lock.json: base_image.digest: missing" (exit 2).
Result<Lock> from_json(const nlohmann::json& value, const std::string& origin);

// Reads and validates a lock file.
Result<Lock> read_lock(const std::filesystem::path& path);

// Writes the lock as canonical JSON, atomically.
Status write_lock(const std::filesystem::path& path, const Lock& lock);

// The sha256 of the lock's canonical bytes (what the image label records).
std::string lock_sha256(const Lock& lock);

} // namespace envlock::lock
