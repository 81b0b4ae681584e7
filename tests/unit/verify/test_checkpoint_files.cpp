// The checkpoint-load check's view of a checkpoint folder before anything loads it: the files
// hashed in path order, and a torch.save archive told from a truncated copy or another tool's file.
#include "../testutil.hpp"
#include "util/sha256.hpp"
#include "verify/resume/checkpoint_files.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <utility>
#include <vector>

using namespace envlock;

namespace {

// `width` little-endian bytes of `value` (zeros past its eight).
void put_le(std::string& out, std::uint64_t value, int width) {
  for (int i = 0; i < width; ++i) {
    out.push_back(i < 8 ? static_cast<char>((value >> (8U * static_cast<unsigned>(i))) & 0xffU)
                        : '\0');
  }
}

// A stored (uncompressed) zip archive of `entries`, as torch.save writes one (CRCs left zero:
// nothing here reads them).
std::string ckpt_zip(const std::vector<std::pair<std::string, std::string>>& entries) {
  std::string out;
  std::string directory;
  for (const auto& [name, data] : entries) {
    const std::uint64_t offset = out.size();
    put_le(out, 0x04034b50, 4);
    put_le(out, 20, 2);
    put_le(out, 0, 2 + 2 + 2 + 2 + 4);
    put_le(out, data.size(), 4);
    put_le(out, data.size(), 4);
    put_le(out, name.size(), 2);
    put_le(out, 0, 2);
    out += name + data;
    put_le(directory, 0x02014b50, 4);
    put_le(directory, 20, 2);
    put_le(directory, 20, 2);
    put_le(directory, 0, 2 + 2 + 2 + 2 + 4);
    put_le(directory, data.size(), 4);
    put_le(directory, data.size(), 4);
    put_le(directory, name.size(), 2);
    put_le(directory, 0, 2 + 2 + 2 + 2 + 4);
    put_le(directory, offset, 4);
    directory += name;
  }
  const std::uint64_t directory_offset = out.size();
  out += directory;
  put_le(out, 0x06054b50, 4);
  put_le(out, 0, 2 + 2);
  put_le(out, entries.size(), 2);
  put_le(out, entries.size(), 2);
  put_le(out, directory.size(), 4);
  put_le(out, directory_offset, 4);
  put_le(out, 0, 2);
  return out;
}

const std::vector<std::pair<std::string, std::string>> k_ckpt_entries = {
    {"archive/data.pkl", std::string("\x80\x02}q\x00.", 6)},
    {"archive/data/0", std::string(4096, 'w')},
    {"archive/version", "3\n"}};

std::string ckpt_problem(const std::filesystem::path& dir, const std::string& bytes) {
  test::write_text(dir / "rank0.pt", bytes);
  return verify::torch_save_problem(dir / "rank0.pt", "ckpt/rank0.pt");
}

} // namespace

TEST_SUITE("verify.checkpoint_load") {
  TEST_CASE("a complete torch.save archive passes") {
    const auto dir = test::temp_dir();
    CHECK(ckpt_problem(dir.path(), ckpt_zip(k_ckpt_entries)) == "");
    CHECK(ckpt_problem(dir.path(), ckpt_zip({{"model/data.pkl", "x"}})) == "");
  }

  TEST_CASE("a truncated copy, an old pickle, another zip: each named") {
    const auto dir = test::temp_dir();
    const std::string whole = ckpt_zip(k_ckpt_entries);
    CHECK(ckpt_problem(dir.path(), whole.substr(0, whole.size() / 2)) ==
          "ckpt/rank0.pt: truncated: no zip end-of-central-directory record (torch.save writes a "
          "zip archive; the copy is incomplete)");
    // The end record is there, but the directory it points at lies past the end of the copy.
    std::string cut = whole.substr(0, 100) + whole.substr(whole.size() - 22);
    CHECK(ckpt_problem(dir.path(), cut) ==
          "ckpt/rank0.pt: truncated: the zip directory lies beyond the end of the file");
    CHECK(ckpt_problem(dir.path(), std::string("\x80\x02\x8a\x0al\xfc\x9c", 7)) ==
          "ckpt/rank0.pt: not a torch.save archive (it does not start with a zip header: an "
          "older torch.save format, or another tool's file)");
    CHECK(ckpt_problem(dir.path(), "") ==
          "ckpt/rank0.pt: not a torch.save archive (it does not start with a zip header: an "
          "older torch.save format, or another tool's file)");
    CHECK(ckpt_problem(dir.path(), ckpt_zip({{"weights/0", "x"}})) ==
          "ckpt/rank0.pt: a zip archive without data.pkl: not written by torch.save");
    CHECK(verify::torch_save_problem(dir.path() / "gone.pt", "ckpt/gone.pt") ==
          "ckpt/gone.pt: No such file or directory");
  }

  TEST_CASE("the folder's files, hashed in path order, give one sha256") {
    const auto dir = test::temp_dir();
    test::write_text(dir.path() / "rank1.pt", "second");
    test::write_text(dir.path() / "rank0.pt", "first");
    test::write_text(dir.path() / "extra/state.json", "{}");
    const auto files = verify::hash_checkpoint(dir.path());
    REQUIRE_MESSAGE(files.has_value(), files.error().message);
    REQUIRE(files->files.size() == 3);
    CHECK(files->files[0].path == "extra/state.json");
    CHECK(files->files[1].path == "rank0.pt");
    CHECK(files->files[1].sha256 == util::sha256_hex("first"));
    CHECK(files->files[2].size == 6);
    CHECK(files->bytes == 13);
    // As `sha256sum extra/state.json rank0.pt rank1.pt | sha256sum` gives it.
    CHECK(files->sha256 == util::sha256_hex(util::sha256_hex("{}") + "  extra/state.json\n" +
                                            util::sha256_hex("first") + "  rank0.pt\n" +
                                            util::sha256_hex("second") + "  rank1.pt\n"));
    const auto empty = verify::hash_checkpoint(test::temp_dir().path());
    REQUIRE(empty.has_value());
    CHECK(empty->files.empty());
    CHECK(empty->sha256 == util::sha256_hex(""));
  }
}
