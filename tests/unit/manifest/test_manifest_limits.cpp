// The limits (size, nesting, alias expansion) and the text forms the reader must cope with.
#include "manifest/source_text.hpp"
#include "manifest_testutil.hpp"

#include <string>

using namespace envlock;

namespace {

std::string minimal() {
  auto text = util::read_file(test::data_path("manifest/good_minimal.yaml"));
  REQUIRE(text.has_value());
  return *text;
}

} // namespace

TEST_SUITE_BEGIN("manifest");

TEST_CASE("manifest limit: more than 1 MiB is refused before parsing") {
  const std::string text = minimal() + "# " + std::string(1024 * 1024, 'x') + "\n";
  const auto parsed = manifest::parse_manifest(text, "big.yaml");
  REQUIRE_FALSE(parsed.has_value());
  CHECK(parsed.error().message == "big.yaml: the manifest is " + std::to_string(text.size()) +
                                      " bytes; the limit is 1 MiB (1048576 bytes)");

  util::TempDir tmp = test::temp_dir();
  test::write_text(tmp.path() / "big.yaml", text);
  const auto loaded = manifest::load_manifest(tmp.path() / "big.yaml");
  REQUIRE_FALSE(loaded.has_value());
  CHECK(loaded.error().code == ExitCode::usage);
  CHECK(loaded.error().message == (tmp.path() / "big.yaml").string() + ": the manifest is " +
                                      std::to_string(text.size()) +
                                      " bytes; the limit is 1 MiB (1048576 bytes)");
}

TEST_CASE("manifest limit: exactly 1 MiB is read") {
  std::string text = minimal() + "# ";
  text += std::string(1024 * 1024 - text.size() - 1, 'x') + "\n";
  REQUIRE(text.size() == 1024 * 1024);
  const auto parsed = manifest::parse_manifest(text, "m.yaml");
  CHECK_MESSAGE(parsed.has_value(), parsed.error().message);
}

TEST_CASE("manifest limit: nesting deeper than 32 levels") {
  // expect.host at depth 3; 29 more levels reach 32, one more is refused.
  std::string ok = minimal() + "expect:\n  host:\n";
  std::string deep = ok;
  ok += "    kernel: " + std::string(29, '[') + std::string(29, ']') + "\n";
  deep += "    kernel: " + std::string(30, '[') + std::string(30, ']') + "\n";
  const auto parsed_ok = manifest::parse_manifest(ok, "m.yaml");
  REQUIRE_FALSE(parsed_ok.has_value());
  CHECK(parsed_ok.error().message.rfind("m.yaml:16:13: 'expect.host.kernel' must be", 0) == 0);
  const auto parsed_deep = manifest::parse_manifest(deep, "m.yaml");
  REQUIRE_FALSE(parsed_deep.has_value());
  CHECK(parsed_deep.error().message == "m.yaml:16:42: nesting deeper than 32 levels\n"
                                       "    kernel: " +
                                           std::string(30, '[') + std::string(30, ']') + "\n" +
                                           std::string(41, ' ') + "^");
}

TEST_CASE("manifest limit: nesting beyond the YAML parser's own guard") {
  const std::string text = minimal() + "expect:\n  host:\n    a: " + std::string(3000, '[') +
                           std::string(3000, ']') + "\n";
  const auto parsed = manifest::parse_manifest(text, "m.yaml");
  REQUIRE_FALSE(parsed.has_value());
  CHECK(parsed.error().message.rfind("m.yaml:16:", 0) == 0);
  CHECK(parsed.error().message.find(": nesting deeper than 32 levels\n") != std::string::npos);
}

TEST_CASE("manifest limit: an alias bomb stops at 100000 nodes") {
  std::string text = minimal() + "expect:\n  host:\n    l0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 6; ++i) {
    const std::string prev = "*a" + std::to_string(i - 1);
    std::string row;
    for (int j = 0; j < 10; ++j) {
      row += (j > 0 ? ", " : "") + prev;
    }
    text += "    l" + std::to_string(i) + ": &a" + std::to_string(i) + " [" + row + "]\n";
  }
  const auto parsed = manifest::parse_manifest(text, "m.yaml");
  REQUIRE_FALSE(parsed.has_value());
  CHECK(parsed.error().message.find(
            ": more than 100000 YAML nodes (each use of an alias counts)\n") != std::string::npos);
}

TEST_CASE("manifest: CRLF line ends and a byte order mark are read") {
  std::string text = "\xEF\xBB\xBF";
  for (const char c : minimal()) {
    text += c == '\n' ? std::string("\r\n") : std::string(1, c);
  }
  const auto parsed = manifest::parse_manifest(text, "m.yaml");
  REQUIRE_MESSAGE(parsed.has_value(), parsed.error().message);
  CHECK(parsed->image.tag == "mc0.19.2-cu13.3");
  // The quoted source line of an error carries no '\r'.
  const auto bad = manifest::parse_manifest(text + "colour: red\r\n", "m.yaml");
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().message ==
        "m.yaml:14:1: unknown key 'colour'; accepted keys: envlock, "
        "image, base, sources, python, build, expect, enroot, training, launch\n"
        "colour: red\n"
        "^");
}

TEST_CASE("manifest: URL credentials are masked in quoted source lines") {
  CHECK(manifest::mask_url_credentials("git: https://u:p@h.invalid/r.git # ssh://git@h/x") ==
        "git: https://***@h.invalid/r.git # ssh://***@h/x");
  CHECK(manifest::mask_url_credentials("plain text, a@b: c") == "plain text, a@b: c");
  CHECK(manifest::mask_url_credentials("https://h.invalid/a@b") == "https://h.invalid/a@b");
}

TEST_SUITE_END();
