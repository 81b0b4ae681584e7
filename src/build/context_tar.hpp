// Writing a context plan as a tar (tar_writer.hpp's reproducible form): the same plan always gives
// the same bytes, and their sha256 is what provenance records.
#pragma once

#include "build/context_plan.hpp"
#include "build/tar_writer.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <string>

namespace envlock::build {

struct ContextTar {
  std::string sha256;      // of the tar's bytes, 64 hex digits
  std::uint64_t size = 0;  // bytes
  std::size_t entries = 0; // entries written
};

// Streams the plan's tar into `sink`. Fails with an environment error when a blob cannot be read
// or libarchive or the sink fails.
Result<ContextTar> write_context_tar(const ContextPlan& plan, const ByteSink& sink);

// Writes the plan's tar to `path` atomically. Fails like write_context_tar, or (exit 3) when the
// file cannot be written.
Result<ContextTar> write_context_file(const ContextPlan& plan, const std::filesystem::path& path);

} // namespace envlock::build
