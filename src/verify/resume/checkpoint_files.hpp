// A checkpoint folder as the checkpoint-load check sees it before anything loads it: its files,
// hashed in a fixed order (so the report names exactly which checkpoint was loaded), and the form
// of the bundled trainer's files, torch.save archives (a zip with a data.pkl), so that a
// truncated copy or another tool's file is named without starting Python.
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace envlock::verify {

struct CheckpointFile {
  std::string path; // relative to the checkpoint folder, '/'-separated
  std::string sha256;
  std::uint64_t size = 0;
};

struct CheckpointFiles {
  std::vector<CheckpointFile> files; // every regular file below the folder, sorted by path
  // sha256 of the lines "SHA256  PATH\n" of `files` in order (sha256sum's form), so the same
  // bytes under the same names give the same digest wherever the folder lies.
  std::string sha256;
  std::uint64_t bytes = 0;
};

// Hashes every regular file below `dir` (links to files are followed, links to folders are not).
// An input error names the folder or file that cannot be read.
Result<CheckpointFiles> hash_checkpoint(const std::filesystem::path& dir);

// Why `path` is not a complete torch.save archive, or "" when it is one: a zip whose end-of-
// central-directory record (zip64 too) is there, whose directory lies inside the file and names
// a data.pkl. `shown` names the file in the reason: "SHOWN: truncated: no zip end-of-central-
// directory record (torch.save writes a zip archive; the copy is incomplete)".
std::string torch_save_problem(const std::filesystem::path& path, const std::string& shown);

} // namespace envlock::verify
