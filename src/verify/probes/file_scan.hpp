// Reading facts out of files without loading them: a version string inside a shared library, and
// the dynamic section of an ELF file (NEEDED, RUNPATH).
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::verify {

// The printable text that follows the first `needle` in the file, up to the first space or
// non-printable byte ("NCCL version " in libnccl gives "2.28.9+cuda13.0"); nothing when the
// needle does not occur. Streams the file (libraries may be gigabytes); an input error names an
// unreadable file.
Result<std::optional<std::string>> find_text_after(const std::filesystem::path& path,
                                                   std::string_view needle);
// The same over what is left to read from `fd`; errors name `shown`.
Result<std::optional<std::string>> find_text_after(int fd, const std::string& shown,
                                                   std::string_view needle);

struct ElfDynamic {
  std::vector<std::string> needed;  // DT_NEEDED
  std::vector<std::string> runpath; // DT_RUNPATH (or DT_RPATH), split on ':'
};

// The dynamic section of a 64-bit little-endian ELF file; an input error when the file is not
// one or is truncated. Paths are opened only when they are regular files.
Result<ElfDynamic> read_elf_dynamic(const std::filesystem::path& path);
// The same of the file open at `fd`; errors name `shown`.
Result<ElfDynamic> read_elf_dynamic(int fd, const std::string& shown);

} // namespace envlock::verify
