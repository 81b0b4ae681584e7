// The verifier's parsers and decoders: version encodings, version.py, PEP 503 names, RECORD,
// Enroot's /etc/rc labels, the version string scan, the ELF dynamic section and the dlopen helper.
#include "../testutil.hpp"
#include "util/dl.hpp"
#include "util/root_dir.hpp"
#include "verify/probes/dist_record.hpp"
#include "verify/probes/enroot_rc.hpp"
#include "verify/probes/file_scan.hpp"
#include "verify/probes/python_env.hpp"
#include "verify/probes/torch_install.hpp"
#include "verify/probes/versions.hpp"

#include <algorithm>
#include <doctest/doctest.h>

using namespace envlock;
using namespace envlock::verify;

TEST_SUITE_BEGIN("verify");

TEST_CASE("version encodings of CUDA, NCCL and cuDNN") {
  CHECK(cuda_version_text(13030) == "13.3");
  CHECK(cuda_version_text(12040) == "12.4");
  CHECK(nccl_version_text(23007) == "2.30.7");
  CHECK(nccl_version_text(22809) == "2.28.9");
  CHECK(nccl_version_text(2708) == "2.7.8");
  CHECK(cudnn_version_text(91400) == "9.14.0");
  CHECK(cudnn_version_text(8902) == "8.9.2");
  CHECK(major_minor("13.0.96") == "13.0");
  CHECK(major_minor("13.3") == "13.3");
  CHECK_FALSE(major_minor("13").has_value());
  CHECK(version_from_file_name("libcudart.so.13.0.96", "libcudart.so.") == "13.0.96");
  CHECK_FALSE(version_from_file_name("libcudart.so", "libcudart.so.").has_value());
  CHECK(strip_build_suffix("2.28.9+cuda13.0") == "2.28.9");
}

TEST_CASE("torch/version.py is read without Python") {
  const auto values = parse_version_py("from typing import Optional\n"
                                       "__version__ = '2.13.0a0+8145d630e8'\n"
                                       "debug = False\n"
                                       "cuda: Optional[str] = \"13.3\"\n"
                                       "git_version = 'abc'\n"
                                       "hip: Optional[str] = None\n");
  CHECK(values.at("__version__") == "2.13.0a0+8145d630e8");
  CHECK(values.at("cuda") == "13.3");
  CHECK(values.at("git_version") == "abc");
  CHECK(values.count("hip") == 0);
  CHECK(values.count("debug") == 0);
}

TEST_CASE("PEP 503 names") {
  CHECK(pep503_name("Typing_Extensions") == "typing-extensions");
  CHECK(pep503_name("zope.interface") == "zope-interface");
  CHECK(pep503_name("a-_.b") == "a-b");
}

TEST_CASE("RECORD lines and their hash encoding") {
  const auto entries = parse_record("six.py,sha256=abc_-,12\n"
                                    "\"dir/with,comma.py\",sha256=xyz,3\n"
                                    "six-1.0.dist-info/RECORD,,\n"
                                    "old.py,md5=zzz,1\n");
  REQUIRE(entries.size() == 4);
  CHECK(entries[0].path == "six.py");
  CHECK(entries[0].sha256 == "abc_-");
  CHECK(entries[0].size == 12);
  CHECK(entries[1].path == "dir/with,comma.py");
  CHECK(entries[2].sha256.empty());
  CHECK(entries[3].sha256.empty());

  util::TempDir dir = test::temp_dir();
  test::write_text(dir.path() / "empty", "");
  CHECK(*record_hash_file(dir.path() / "empty") == "47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU");
  const std::uint8_t bytes[] = {0xfb, 0xff};
  CHECK(urlsafe_b64_nopad(bytes, 2) == "-_8");
  CHECK(urlsafe_b64_nopad(bytes, 1) == "-w");
}

TEST_CASE("RECORD files are checked in parallel and mismatches named") {
  util::TempDir dir = test::temp_dir();
  std::vector<RecordFile> files;
  for (int i = 0; i < 20; ++i) {
    const auto path = dir.path() / ("f" + std::to_string(i));
    test::write_text(path, "content " + std::to_string(i));
    files.push_back({path, "f" + std::to_string(i), *record_hash_file(path)});
  }
  test::write_text(dir.path() / "f7", "content 7 changed");
  std::filesystem::remove(dir.path() / "f3");
  const auto result =
      check_record_files(files, [](const std::filesystem::path& path) -> Result<util::Fd> {
        if (!std::filesystem::exists(path)) {
          return input_error("missing");
        }
        return util::open_regular_file(path);
      });
  CHECK(result.files == 20);
  REQUIRE(result.mismatches.size() == 2);
  CHECK(result.mismatches[0].shown == "f3");
  CHECK(result.mismatches[0].problem == "missing");
  CHECK(result.mismatches[1].shown == "f7");
  CHECK(result.mismatches[1].problem == "hash differs");
}

TEST_CASE("Enroot /etc/rc labels") {
  const auto labels =
      parse_enroot_rc_labels("# enroot-provenance: docker://registry.example.invalid#img:1\n"
                             "# org.opencontainers.image.revision 0123\n"
                             "# com.example.multi a b  c\n"
                             "\n"
                             "# after the block\n");
  CHECK(labels.at("enroot-provenance") == "docker://registry.example.invalid#img:1");
  CHECK(labels.at("org.opencontainers.image.revision") == "0123");
  CHECK(labels.at("com.example.multi") == "a b  c");
  CHECK(labels.count("after") == 0);
}

TEST_CASE("the version string is found across read chunks") {
  util::TempDir dir = test::temp_dir();
  const auto path = dir.path() / "libnccl.so.2";
  std::string data((std::size_t{4} << 20) - 7, 'x');
  data += std::string("NCCL version 2.30.7+cuda13.3") + '\0' + "tail";
  test::write_text(path, data);
  auto found = find_text_after(path, "NCCL version ");
  REQUIRE(found);
  CHECK(*found == std::optional<std::string>("2.30.7+cuda13.3"));
  test::write_text(path, "no version here");
  CHECK_FALSE(find_text_after(path, "NCCL version ")->has_value());
  const auto missing = find_text_after(dir.path() / "none", "x");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == (dir.path() / "none").string() + ": No such file or directory");
}

TEST_CASE("the dynamic section of an ELF file") {
  auto elf = read_elf_dynamic("/proc/self/exe");
  REQUIRE(elf);
  CHECK(std::find(elf->needed.begin(), elf->needed.end(), "libc.so.6") != elf->needed.end());
  util::TempDir dir = test::temp_dir();
  test::write_text(dir.path() / "text", "not an elf file at all, but long enough to be read....");
  const auto bad = read_elf_dynamic(dir.path() / "text");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().message ==
        (dir.path() / "text").string() + ": not a 64-bit little-endian ELF file");
}

TEST_CASE("util::dl_open tries each name and says which file loaded") {
  const auto one = util::dl_open({"libenvlock-none.so.1"});
  REQUIRE_FALSE(one);
  CHECK(one.error().code == ExitCode::environment);
  CHECK(one.error().message == "libenvlock-none.so.1 not found");
  const auto two = util::dl_open({"libenvlock-none.so.1", "libenvlock-none.so.2"});
  REQUIRE_FALSE(two);
  CHECK(two.error().message == "none of libenvlock-none.so.1, libenvlock-none.so.2 found");

  auto libc = util::dl_open({"libenvlock-none.so.1", "libc.so.6"});
  REQUIRE(libc);
  CHECK(libc->name() == "libc.so.6");
  CHECK(util::dl_path(*libc).find("libc.so.6") != std::string::npos);
  auto strlen_fn = util::dl_sym<std::size_t (*)(const char*)>(*libc, "strlen");
  REQUIRE(strlen_fn);
  CHECK((*strlen_fn)("four") == 4);
  const auto missing = util::dl_sym<void (*)()>(*libc, "envlock_no_such_symbol");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == "libc.so.6: symbol envlock_no_such_symbol not found");
}

TEST_SUITE_END();
