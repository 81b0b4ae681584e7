// The lock (envlock.lock.json): every floating name of the manifest resolved once. It is the hub
// that every later command reads; docs/formats/lock.md describes each field.
//
// On disk it is canonical JSON (util/json.hpp): sorted keys, 2-space indent, trailing newline,
// written atomically, so locking twice with nothing changed gives identical bytes. It is read one
// section at a time, each with a util::FieldReader (lock.cpp, expect.cpp, recipe.cpp,
// training.cpp): every field typed, unknown keys refused at any level. This module
// depends on nothing but util and nlohmann/json, so the node-side verifier can read locks too.
#pragma once

#include "lock/declared_number.hpp"
#include "lock/health_expect.hpp"
#include "lock/links_expect.hpp"
#include "lock/training.hpp"
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

// Enroot's default ENROOT_SQUASH_OPTIONS since 4.1.0: the manifest's default and `envlock
// squashfs`'s without a lock.
inline constexpr const char* k_enroot_squash_options = "-comp lzo -noD -exit-on-error";

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
  // `uv sync --locked` with the lock's sync_args on the image's platform and Python does not
  // install it (uv::sync_selection, computed when locking): a dev group left out, an extra not
  // asked for, an edge whose marker does not hold. Written only when true.
  bool not_selected = false;
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

// One expect.host entry: what a host fact must match (docs/manual/node.md). Written as a text
// ("Ubuntu 24.04", a glob "580.*", comparisons ">=6.8,<6.9"), a number (matched by its text) or
// a non-empty list of those (any of them).
struct HostExpectation {
  struct Entry {
    std::string text;    // the text, or the number's JSON text
    bool number = false; // written as a number
    bool operator==(const Entry&) const = default;
  };
  std::vector<Entry> entries; // one, unless written as a list
  bool list = false;
  bool operator==(const HostExpectation&) const = default;
};

using HostExpect = std::map<std::string, HostExpectation>; // host fact -> what it must match

// Reads an expect.host object; an input error names the entry: "expect.host.kernel: must be a
// string, a number or a non-empty list of them", "expect.host.driver: each entry must be a
// string or a number".
Result<HostExpect> read_host_expect(const nlohmann::json& value);

// expect.host as the lock writes it (each entry in the form it was declared).
nlohmann::json host_expect_to_json(const HostExpect& host);

// expect.resume: the resume check's plan and tolerances as declared; an absent key takes the
// default (docs/manual/resume.md).
struct ResumeExpect {
  std::optional<std::int64_t> steps;           // >= 1
  std::optional<std::int64_t> checkpoint_step; // between 1 and steps - 1
  std::optional<DeclaredNumber> loss_abs;      // each >= 0
  std::optional<DeclaredNumber> loss_rel;
  std::optional<DeclaredNumber> lr_abs;
  std::optional<DeclaredNumber> param_abs;
  std::optional<DeclaredNumber> param_rel;
  bool operator==(const ResumeExpect&) const = default;
};

// The keys expect.resume accepts, in documentation order.
const std::vector<std::string>& resume_keys();

// Reads an expect.resume object. An input error names the key: "expect.resume.loss_abs: expected
// a number >= 0", "expect.resume.steps: expected an integer >= 1", "expect.resume.checkpoint_step:
// must be between 1 and steps - 1 (99)", "expect.resume: unknown key 'los_abs'; did you mean
// 'loss_abs'?".
Result<ResumeExpect> read_resume_expect(const nlohmann::json& value);

// expect.resume as the lock writes it: the declared keys only.
nlohmann::json resume_expect_to_json(const ResumeExpect& resume);

// What verification checks later; copied from the manifest's `expect`.
struct Expect {
  std::string cuda;    // "13.3"
  std::string nccl;    // "2.30.7"
  std::string pytorch; // "2.13.0a0+8145d630e8"
  std::string python;  // "3.12"
  GpuExpect gpus;
  // Minimum all-reduce bus bandwidth at 1 GiB, GB/s, by GPU model ("NVIDIA H200": 300).
  std::map<std::string, double> nccl_busbw_gbps;
  HostExpect host;
  ResumeExpect resume;
  LinksExpect links; // expect.links: the link bandwidth check's minimums by GPU model
  // expect.host.health, written inside expect.host; absent: health is judged by the defaults
  // only where the lock expects GPUs (docs/manual/health.md).
  std::optional<HealthExpect> health;
  bool operator==(const Expect&) const = default;
};

// The lock's "expect" value.
nlohmann::json expect_to_json(const Expect& expect);

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

// One image an upstream recipe's FROM line names, resolved (docs/formats/lock.md, "recipe").
struct RecipeImage {
  int line = 0;        // the FROM's first line in the recipe
  std::string written; // the image as the FROM writes it: "${FROM_IMAGE_NAME}"
  std::string image;   // with the build arguments applied: "nvcr.io/nvidia/pytorch:26.06-py3"
  std::string digest;  // what the registry resolved it to (index or manifest)
  std::string platform_digest; // the platform's manifest, when `digest` is an index
  bool operator==(const RecipeImage&) const = default;
};

// The upstream recipe: a Dockerfile of a source at its locked commit, by sha256.
struct Recipe {
  std::string upstream;            // "megatron"
  std::string path;                // in the repository, e.g. "docker/Dockerfile.ci.dev"
  std::string target;              // the stage the final stage builds on
  std::string sha256;              // of the recipe's bytes at the locked commit
  std::vector<RecipeImage> images; // one per FROM that names an image, in order
  bool operator==(const Recipe&) const = default;
};

// The lock's "recipe" value.
nlohmann::json recipe_to_json(const Recipe& recipe);

// A file the manifest's build.context lists, by sha256.
struct ContextFile {
  std::string path; // relative to the manifest's folder, normalised
  std::string sha256;
  bool operator==(const ContextFile&) const = default;
};

// The lock's "context" value.
nlohmann::json context_to_json(const std::vector<ContextFile>& files);

// The sections, each read through `top` (the lock's reader, lock/training.hpp shows the form),
// which records the first error with the field's path ("envlock.lock.json:
// recipe.images[1].digest: missing", "envlock.lock.json: context[0]: unknown key 'sha'; did you
// mean 'sha256'?", "envlock.lock.json: expect.resume.steps: expected an integer >= 1").
Expect read_expect(util::FieldReader& top);
Recipe read_recipe(util::FieldReader& top);
std::vector<ContextFile> read_context(util::FieldReader& top);

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
  std::optional<std::vector<ContextFile>> context; // only when the manifest lists build.context
  std::optional<Recipe> recipe;                    // only for an upstream recipe
  std::optional<Training> training;                // only when the manifest has `training:`
  std::optional<Launch> launch;                    // only when the manifest has `launch:`
  bool operator==(const Lock&) const = default;
};

// The canonical JSON object of a lock.
nlohmann::json to_json(const Lock& lock);

// Reads a lock object, every field typed; errors name `origin` and the JSON path of the bad
// field, e.g. "envlock.lock.json: base_image.digest: missing" (exit 2).
Result<Lock> from_json(const nlohmann::json& value, const std::string& origin);

// Reads and validates a lock file.
Result<Lock> read_lock(const std::filesystem::path& path);

// The pins a lock made by `envlock lock` always has, as `render` and `lock --check` require them:
// base_image.digest and platform_digest "sha256:" + 64 lowercase hex, every source commit 40
// lowercase hex, the uv.lock and pyproject sha256s 64 lowercase hex, and uv's sha256 too when
// the manifest pinned one. The first problem, as "ORIGIN: FIELD: 'VALUE' is not ...".
Status check_pins(const Lock& lock, const std::string& origin);

// Writes the lock as canonical JSON, atomically.
Status write_lock(const std::filesystem::path& path, const Lock& lock);

// The sha256 of the lock's canonical bytes (what the image label records).
std::string lock_sha256(const Lock& lock);

} // namespace envlock::lock
