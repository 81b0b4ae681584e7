// The ELF reader's bounds checks, word for word: crafted headers whose program header table,
// dynamic segment or string table lies past the end of the file are refused before anything is
// allocated or read for them.
#include "../testutil.hpp"
#include "verify/probes/file_scan.hpp"

#include <cstdint>
#include <cstring>
#include <doctest/doctest.h>
#include <elf.h>
#include <limits>
#include <string>

using namespace envlock;
using namespace envlock::verify;

namespace {

// The bytes of a value, as they lie in memory (little-endian on the machines envlock runs on).
template <typename T> std::string bytes_of(const T& value) {
  std::string out(sizeof value, '\0');
  std::memcpy(out.data(), &value, sizeof value);
  return out;
}

// A 64-bit little-endian ELF header with `phnum` program headers at `phoff`.
Elf64_Ehdr elf_header(std::uint64_t phoff, std::uint16_t phnum) {
  Elf64_Ehdr header{};
  std::memcpy(header.e_ident, ELFMAG, SELFMAG);
  header.e_ident[EI_CLASS] = ELFCLASS64;
  header.e_ident[EI_DATA] = ELFDATA2LSB;
  header.e_ident[EI_VERSION] = EV_CURRENT;
  header.e_type = ET_DYN;
  header.e_machine = EM_X86_64;
  header.e_version = EV_CURRENT;
  header.e_ehsize = sizeof(Elf64_Ehdr);
  header.e_phentsize = sizeof(Elf64_Phdr);
  header.e_phoff = phoff;
  header.e_phnum = phnum;
  return header;
}

Elf64_Phdr segment(std::uint32_t type, std::uint64_t offset, std::uint64_t size) {
  Elf64_Phdr s{};
  s.p_type = type;
  s.p_offset = offset;
  s.p_vaddr = offset;
  s.p_filesz = size;
  s.p_memsz = size;
  return s;
}

Elf64_Dyn dyn(std::int64_t tag, std::uint64_t value) {
  Elf64_Dyn entry{};
  entry.d_tag = tag;
  entry.d_un.d_val = value;
  return entry;
}

// Writes `bytes` to DIR/NAME and returns the reader's error message ("" when it succeeded).
std::string elf_error(const util::TempDir& dir, const std::string& name, const std::string& bytes) {
  test::write_text(dir.path() / name, bytes);
  const auto result = read_elf_dynamic(dir.path() / name);
  return result ? "" : result.error().message;
}

} // namespace

TEST_SUITE_BEGIN("verify");

TEST_CASE("read_elf_dynamic: a program header table past the end of the file") {
  const util::TempDir dir = test::temp_dir();
  const std::string expected = ": not a 64-bit little-endian ELF file";
  // One program header at offset 4096 of a 64-byte file.
  CHECK(elf_error(dir, "phoff", bytes_of(elf_header(4096, 1))) ==
        (dir.path() / "phoff").string() + expected);
  // The table starts inside the file but its 3 entries run past the end.
  const std::string short_table =
      bytes_of(elf_header(sizeof(Elf64_Ehdr), 3)) + bytes_of(segment(PT_LOAD, 0, 64));
  CHECK(elf_error(dir, "phnum", short_table) == (dir.path() / "phnum").string() + expected);
  // An offset near 2^64, where offset + size would wrap around.
  CHECK(elf_error(dir, "wrap",
                  bytes_of(elf_header(std::numeric_limits<std::uint64_t>::max() - 8, 1))) ==
        (dir.path() / "wrap").string() + expected);
}

TEST_CASE("read_elf_dynamic: a dynamic segment past the end of the file") {
  const util::TempDir dir = test::temp_dir();
  const std::string expected = ": not a 64-bit little-endian ELF file";
  const auto file = [](std::uint64_t offset, std::uint64_t size) {
    return bytes_of(elf_header(sizeof(Elf64_Ehdr), 1)) +
           bytes_of(segment(PT_DYNAMIC, offset, size));
  };
  // Starting past the end; and starting inside the file with a size of 2^50 bytes, which would
  // fail to allocate if it were trusted.
  CHECK(elf_error(dir, "offset", file(1 << 20, 32)) == (dir.path() / "offset").string() + expected);
  CHECK(elf_error(dir, "size", file(sizeof(Elf64_Ehdr), std::uint64_t{1} << 50)) ==
        (dir.path() / "size").string() + expected);
}

TEST_CASE("read_elf_dynamic: a string table past the end of the file") {
  const util::TempDir dir = test::temp_dir();
  // Header, two program headers (a PT_LOAD covering the file, the PT_DYNAMIC), then the dynamic
  // section: DT_STRTAB inside the load segment, DT_STRSZ far beyond the file's end.
  const std::uint64_t dynamic_at = sizeof(Elf64_Ehdr) + 2 * sizeof(Elf64_Phdr);
  const std::uint64_t file_size = dynamic_at + 3 * sizeof(Elf64_Dyn);
  const auto file = [&](std::uint64_t strsz) {
    return bytes_of(elf_header(sizeof(Elf64_Ehdr), 2)) + bytes_of(segment(PT_LOAD, 0, file_size)) +
           bytes_of(segment(PT_DYNAMIC, dynamic_at, 3 * sizeof(Elf64_Dyn))) +
           bytes_of(dyn(DT_STRTAB, 0)) + bytes_of(dyn(DT_STRSZ, strsz)) + bytes_of(dyn(DT_NULL, 0));
  };
  // Within bounds it reads (no DT_NEEDED), so only the size makes the difference below.
  CHECK(elf_error(dir, "strtab-ok", file(8)) == "");
  CHECK(elf_error(dir, "strtab", file(std::uint64_t{1} << 50)) ==
        (dir.path() / "strtab").string() + ": not a 64-bit little-endian ELF file");
}

TEST_SUITE_END();
