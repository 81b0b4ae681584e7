#include "verify/probes/file_scan.hpp"

#include "util/fd.hpp"
#include "util/fs.hpp"
#include "util/root_dir.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace envlock::verify {

namespace {

constexpr std::size_t k_chunk = std::size_t{4} << 20;
constexpr std::size_t k_tail = 64; // bytes kept after a match for the version text

Error read_error(const std::string& shown, int err) {
  return input_error(shown + ": " + std::strerror(err));
}

// Reads exactly `size` bytes at `offset`; false on a short read or an error.
bool read_at(int fd, void* buffer, std::size_t size, std::uint64_t offset) {
  auto* out = static_cast<char*>(buffer);
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, out + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string printable_prefix(std::string_view text) {
  std::size_t end = 0;
  while (end < text.size() && text[end] > ' ' && text[end] < 0x7f) {
    ++end;
  }
  return std::string(text.substr(0, end));
}

} // namespace

Result<std::optional<std::string>> find_text_after(const std::filesystem::path& path,
                                                   std::string_view needle) {
  ENVLOCK_TRY_ASSIGN(const util::Fd fd, util::open_regular_file(path));
  return find_text_after(fd.get(), path.string(), needle);
}

Result<std::optional<std::string>> find_text_after(int fd, const std::string& shown,
                                                   std::string_view needle) {
  std::string window;
  std::string chunk(k_chunk, '\0');
  const std::size_t keep = needle.size() + k_tail;
  for (;;) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return read_error(shown, errno);
    }
    window.append(chunk.data(), static_cast<std::size_t>(n));
    const auto* hit = static_cast<const char*>(
        ::memmem(window.data(), window.size(), needle.data(), needle.size()));
    if (hit != nullptr) {
      const std::size_t at = static_cast<std::size_t>(hit - window.data()) + needle.size();
      if (n == 0 || window.size() - at >= k_tail) {
        return std::optional<std::string>(printable_prefix(std::string_view(window).substr(at)));
      }
      continue; // read on for the text after the match
    }
    if (n == 0) {
      return std::optional<std::string>();
    }
    if (window.size() > keep) {
      window.erase(0, window.size() - keep);
    }
  }
}

Result<ElfDynamic> read_elf_dynamic(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const util::Fd fd, util::open_regular_file(path));
  return read_elf_dynamic(fd.get(), path.string());
}

Result<ElfDynamic> read_elf_dynamic(int fd, const std::string& shown) {
  const auto not_elf = input_error(shown + ": not a 64-bit little-endian ELF file");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return read_error(shown, errno);
  }
  // Every table the headers point at must lie inside the file: sizes are read from the file
  // itself, so they are checked before anything is allocated for them.
  const auto file_size = static_cast<std::uint64_t>(st.st_size);
  const auto inside = [file_size](std::uint64_t offset, std::uint64_t size) {
    return offset <= file_size && size <= file_size - offset;
  };
  Elf64_Ehdr header{};
  if (!read_at(fd, &header, sizeof header, 0) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
      header.e_ident[EI_DATA] != ELFDATA2LSB || header.e_phentsize != sizeof(Elf64_Phdr)) {
    return not_elf;
  }
  if (!inside(header.e_phoff, std::uint64_t{header.e_phnum} * sizeof(Elf64_Phdr))) {
    return not_elf;
  }
  std::vector<Elf64_Phdr> segments(header.e_phnum);
  if (!read_at(fd, segments.data(), segments.size() * sizeof(Elf64_Phdr), header.e_phoff)) {
    return not_elf;
  }
  const auto dynamic = std::find_if(segments.begin(), segments.end(),
                                    [](const Elf64_Phdr& s) { return s.p_type == PT_DYNAMIC; });
  if (dynamic == segments.end()) {
    return ElfDynamic{};
  }
  if (!inside(dynamic->p_offset, dynamic->p_filesz)) {
    return not_elf;
  }
  std::vector<Elf64_Dyn> entries(dynamic->p_filesz / sizeof(Elf64_Dyn));
  if (!read_at(fd, entries.data(), entries.size() * sizeof(Elf64_Dyn), dynamic->p_offset)) {
    return not_elf;
  }
  std::uint64_t strtab = 0;
  std::uint64_t strsz = 0;
  for (const auto& entry : entries) {
    if (entry.d_tag == DT_STRTAB) {
      strtab = entry.d_un.d_ptr;
    } else if (entry.d_tag == DT_STRSZ) {
      strsz = entry.d_un.d_val;
    }
  }
  std::uint64_t strtab_offset = 0;
  bool mapped = false;
  for (const auto& segment : segments) {
    if (segment.p_type == PT_LOAD && strtab >= segment.p_vaddr &&
        strtab < segment.p_vaddr + segment.p_filesz) {
      strtab_offset = strtab - segment.p_vaddr + segment.p_offset;
      mapped = true;
      break;
    }
  }
  if (!mapped || strsz == 0 || !inside(strtab_offset, strsz)) {
    return not_elf;
  }
  std::string strings(strsz, '\0');
  if (!read_at(fd, strings.data(), strsz, strtab_offset)) {
    return not_elf;
  }
  auto string_at = [&](std::uint64_t offset) -> std::string {
    return offset < strings.size() ? std::string(strings.c_str() + offset) : std::string();
  };
  ElfDynamic out;
  std::string runpath;
  std::string rpath;
  for (const auto& entry : entries) {
    if (entry.d_tag == DT_NEEDED) {
      out.needed.push_back(string_at(entry.d_un.d_val));
    } else if (entry.d_tag == DT_RUNPATH) {
      runpath = string_at(entry.d_un.d_val);
    } else if (entry.d_tag == DT_RPATH) {
      rpath = string_at(entry.d_un.d_val);
    }
  }
  const std::string& search = runpath.empty() ? rpath : runpath;
  if (!search.empty()) {
    out.runpath = util::split(search, ':');
  }
  return out;
}

} // namespace envlock::verify
