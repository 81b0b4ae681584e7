// The manifest (envlock.yaml, schema version 1): what a human writes and reviews. Parsing turns
// YAML into this typed Manifest; every error is one "FILE:LINE:COL: message" with the source line
// and a caret (exit 2). docs/manual/manifest.md lists every key.
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

namespace envlock::manifest {

struct ImageTarget {
  std::string name;       // shan-training
  std::string tag;        // mc0.19.2-cu13.3
  std::string repository; // registry.example.internal/ml/shan-training (where build pushes)
};

struct Base {
  std::string image; // a tag, or tag@sha256:...; validated as an image reference
  std::string platform = "linux/amd64";
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

struct Build {
  std::map<std::string, std::string> args; // build args, e.g. NCCL_VERSION
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
  std::map<std::string, double> nccl_busbw_gbps;    // GPU model -> minimum busbw at 1 GiB
  nlohmann::json host = nlohmann::json::object();   // expected host combination (node facts)
  nlohmann::json resume = nlohmann::json::object(); // resume-check tolerances
};

struct Enroot {
  std::string squash_options = "-comp lzo -noD -exit-on-error";
  std::int64_t source_date_epoch = 0;
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
  // Top-level sections owned by later features (e.g. build.recipe), as parsed.
  nlohmann::json extra = nlohmann::json::object();
};

// Parses manifest text. `filename` is used in error messages only; `dir` resolves relative paths.
Result<Manifest> parse_manifest(std::string_view text, const std::filesystem::path& filename);

// Reads and parses a manifest file.
Result<Manifest> load_manifest(const std::filesystem::path& path);

// The manifest as parsed, as JSON (for provenance's externalParameters).
nlohmann::json to_json(const Manifest& manifest);

} // namespace envlock::manifest
