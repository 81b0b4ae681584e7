// The manifest (envlock.yaml, schema version 1): what a human writes and reviews. Parsing turns
// YAML into this typed Manifest; every error is one "FILE:LINE:COL: message" with the source line
// and a caret (exit 2). docs/manual/manifest.md lists every key.
#pragma once

#include "lock/lock.hpp"
#include "oci/platform.hpp"
#include "util/result.hpp"
#include "util/secret_values.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::manifest {

struct ImageTarget {
  std::string name;       // shan-training
  std::string tag;        // mc0.19.2-cu13.3
  std::string repository; // registry.example.internal/ml/shan-training (where build pushes)
};

struct Base {
  std::string image; // a tag, or tag@sha256:...; validated as an image reference
  std::string platform = oci::k_default_platform;
};

struct GitSource {
  std::string git; // URL or local path (relative paths are resolved against the manifest folder)
  std::string ref; // tag, branch or commit
};

struct Uv {
  std::string version; // 0.7.2
  std::string sha256;  // sha256 of the uv release archive for the platform
};

struct Python {
  std::string project = "."; // folder holding pyproject.toml and uv.lock
  Uv uv;
  std::vector<std::string> sync_args; // extra arguments for `uv sync --locked`
};

// build.recipe in its upstream form: a Dockerfile of a source at its locked commit.
struct RecipeSpec {
  std::string upstream; // "megatron"
  std::string path;     // in the repository, e.g. "docker/Dockerfile.ci.dev"
  std::string target;   // the stage the final stage builds on
};

struct Build {
  std::map<std::string, std::string> args;         // build args, e.g. NCCL_VERSION
  bool recipe_template = false;                    // `recipe: template` written out (the default)
  std::optional<RecipeSpec> recipe;                // an upstream recipe
  std::optional<std::vector<std::string>> context; // build.context: files the build reads
};

struct Gpus {
  std::int64_t count = 0; // 0: not checked
  std::string model;      // empty: not checked
};

struct Expect {
  std::string cuda;    // "13.3"
  std::string nccl;    // "2.30.7"
  std::string pytorch; // "2.13.0a0+8145d630e8"
  std::string python;  // "3.12"
  Gpus gpus;
  std::map<std::string, double> nccl_busbw_gbps; // GPU model -> minimum busbw at 1 GiB
  lock::HostExpect host;                         // expected host combination (node facts)
  lock::ResumeExpect resume;                     // the resume check's plan and tolerances
  lock::LinksExpect links;                       // the link check's minimums by GPU model
  std::optional<lock::HealthExpect> health;      // expect.host.health (docs/manual/health.md)
};

struct Enroot {
  std::string squash_options = lock::k_enroot_squash_options;
  std::int64_t source_date_epoch = 0;
  // The locale of Enroot's bash when it writes /etc/rc: "C.UTF-8" or "C" (lock::EnrootLocale).
  std::string locale = "C.UTF-8";
};

// training: what a colleague needs to repeat the training sample. Paths are relative to the
// manifest's folder; `envlock lock` hashes the files.
struct Training {
  std::optional<std::string> config;                 // a file
  std::optional<std::vector<std::string>> tokenizer; // files
  std::optional<std::string> data;                   // a Megatron PREFIX (PREFIX.bin, PREFIX.idx)
  std::string checkpoint_dir;                        // recorded as written, not read
};

// launch: how training is started; recorded as written.
struct Launch {
  std::string command;
  std::map<std::string, std::string> directories; // name -> path
};

struct Manifest {
  std::filesystem::path path; // the file it was read from
  std::filesystem::path dir;  // its folder: relative paths in the manifest start here
  std::string sha256;         // sha256 of the file's bytes
  std::int64_t schema = 1;    // `envlock: 1`
  ImageTarget image;
  Base base;
  std::map<std::string, GitSource> sources; // "megatron" is the one the tool knows
  Python python;
  Build build;
  Expect expect;
  Enroot enroot;
  std::optional<Training> training;
  std::optional<Launch> launch;
};

// Parses manifest text. `filename` names the text in error messages ("FILE:LINE:COL: ...") and
// its folder becomes Manifest::dir. Fails with one input error (exit 2), the first fault found:
// YAML syntax, an empty or non-mapping document, more than 1 MiB, nesting deeper than 32, a
// duplicate or unknown key, a missing required key, a wrong type or a malformed value.
// `secrets` are the values no error may show (load_manifest passes oci::known_secrets()).
Result<Manifest> parse_manifest(std::string_view text, const std::filesystem::path& filename,
                                util::SecretValues secrets = {});

// Reads and parses a manifest file; Manifest::dir is its absolute folder. Fails like
// parse_manifest, or with an input error naming the path when the file cannot be read, is not a
// regular file or resolves outside its project (read_source_file, LinkRule::inside_project).
Result<Manifest> load_manifest(const std::filesystem::path& path);

// The manifest as parsed, as JSON with the manifest's own key names and every default filled
// in (for provenance's externalParameters). Parsing this JSON again gives the same manifest.
nlohmann::json to_json(const Manifest& manifest);

// `path` (python.project, a local sources.*.git) resolved against the manifest's folder;
// absolute paths are returned as they are. Lexical only: nothing is read.
std::filesystem::path resolve_path(const Manifest& manifest, const std::string& path);

// The resolved folder of a git source given as a local path, or nothing when it is a URL
// (scheme://... or scp-like user@host:path).
std::optional<std::filesystem::path> local_git_path(const Manifest& manifest,
                                                    const GitSource& source);

} // namespace envlock::manifest
