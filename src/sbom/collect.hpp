// `envlock sbom`'s core: an unpacked image tree (and, when given, its lock and uv.lock) in, the
// Bom out. Every file of the tree is read through a verify::RunContext rooted at it, so nothing
// outside the tree is read (util/root_dir.hpp), and every part is found the way envlock-verify
// finds it: the Python environment, CUDA, NCCL, cuDNN, Megatron-LM's commit.
#pragma once

#include "lock/lock.hpp"
#include "sbom/bom.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace envlock::sbom {

// What is known of the image beyond its tree.
struct ImageFacts {
  std::string reference;   // as given (REF@DIGEST) or recorded by a squashfs result; may be empty
  std::string name;        // registry/repository; may be empty
  std::string digest;      // the platform manifest's digest; empty when unknown
  std::string sqsh_file;   // the .sqsh's file name, when the tree came from one
  std::string sqsh_sha256; // its sha256
};

struct SbomInputs {
  std::filesystem::path root; // the image's tree
  std::optional<lock::Lock> lock;
  std::string uv_lock_text;   // the lock's uv.lock; empty when there is none
  std::string uv_lock_origin; // its path, for messages
  ImageFacts image;
  std::optional<std::int64_t> source_date_epoch; // the timestamp; else the lock's
  std::string envlock_version;
};

// Fails with an input error when the root cannot be opened or uv.lock cannot be parsed.
Result<Bom> collect_bom(const SbomInputs& inputs);

} // namespace envlock::sbom
