#include "squashfs/bash_quote.hpp"
#include "squashfs/enroot_files.hpp"
#include "util/process.hpp"

#include <doctest/doctest.h>
#include <string>
#include <string_view>
#include <vector>

using namespace envlock::squashfs;
using envlock::lock::EnrootLocale;

namespace {

std::string bash_quote(std::string_view word) {
  return envlock::squashfs::bash_quote(word, EnrootLocale::utf8);
}

std::string render_rc(const ImageConfig& config) {
  return envlock::squashfs::render_rc(config, EnrootLocale::utf8);
}

// What bash itself prints for ${word@Q} under LC_ALL=`locale`: the reference.
std::string bash_says(const std::string& word, const std::string& locale) {
  envlock::util::ProcessOptions options;
  options.env = {{"LC_ALL", locale}};
  const auto run =
      envlock::util::run_process({"bash", "-c", "printf %s \"${1@Q}\"", "_", word}, options);
  REQUIRE(run.has_value());
  REQUIRE(run->exit_code == 0);
  return run->out;
}

} // namespace

TEST_SUITE("squashfs") {

  TEST_CASE("bash_quote matches bash 5's ${x@Q}") {
    CHECK(bash_quote("plain") == "'plain'");
    CHECK(bash_quote("") == "''");
    CHECK(bash_quote("it's") == "'it'\\''s'");
    CHECK(bash_quote("$HOME *") == "'$HOME *'");
    CHECK(bash_quote("tab\there") == "$'tab\\there'");
    CHECK(bash_quote("a'b\x01") == "$'a\\'b\\001'");
  }

  TEST_CASE("bash_quote under C and C.UTF-8, byte for byte") {
    using envlock::squashfs::bash_quote;
    CHECK(bash_quote("gr\xc3\xbc\xc3\x9f"
                     "e",
                     EnrootLocale::c) == "$'gr\\303\\274\\303\\237e'");
    CHECK(bash_quote("gr\xc3\xbc\xc3\x9f"
                     "e",
                     EnrootLocale::utf8) == "'gr\xc3\xbc\xc3\x9f"
                                            "e'");
    CHECK(bash_quote("tab\t\xc3\xbc", EnrootLocale::utf8) == "$'tab\\t\xc3\xbc'");
    CHECK(bash_quote("nel\xc2\x85", EnrootLocale::utf8) == "$'nel\\302\\205'");
    CHECK(bash_quote("bad\xc3(", EnrootLocale::utf8) == "$'bad\\303('");
    CHECK(bash_quote("it's \xff", EnrootLocale::c) == "$'it\\'s \\377'");
    // U+1FAE8 is unassigned in Unicode 14 (glibc 2.36), so bash escapes it there.
    CHECK(bash_quote("\xf0\x9f\xab\xa8", EnrootLocale::utf8) == "$'\\360\\237\\253\\250'");
  }

  TEST_CASE("bash_quote agrees with bash itself under LC_ALL=C and LC_ALL=C.UTF-8") {
    // Words whose quoting every glibc since Unicode 6 agrees on: ASCII, controls, valid and
    // malformed UTF-8, C1 controls, separators, format and private-use characters, noncharacters.
    const std::vector<std::string> words = {"",
                                            "plain",
                                            "it's",
                                            "$HOME *",
                                            "tab\there",
                                            "a'b\x01\x7f",
                                            "\x1b[0m\a\b\f\n\r\v\\",
                                            "gr\xc3\xbc\xc3\x9f"
                                            "e",
                                            "\xe6\x97\xa5\xe6\x9c\xac 'x'",
                                            "tab\there \xc3\xbc",
                                            "nel\xc2\x85",
                                            "ls\xe2\x80\xa8",
                                            "nbsp\xc2\xa0",
                                            "bom\xef\xbb\xbf",
                                            "pua\xee\x80\x80",
                                            "\xf0\x9f\x98\x80",
                                            "bad\xc3(",
                                            "\xff\xfe",
                                            "cut\xe2\x82",
                                            "\xed\xa0\x80 surrogate",
                                            "\xc0\xaf overlong",
                                            "\xef\xbf\xbe nonchar",
                                            "\xf4\x90\x80\x80 beyond",
                                            "\xcd\xb8 unassigned",
                                            "\xe2\x80\x8b zwsp",
                                            "\xf3\xa0\x80\x81 tag"};
    for (const auto& word : words) {
      CAPTURE(word);
      CHECK(envlock::squashfs::bash_quote(word, EnrootLocale::c) == bash_says(word, "C"));
      CHECK(envlock::squashfs::bash_quote(word, EnrootLocale::utf8) == bash_says(word, "C.UTF-8"));
    }
  }

  TEST_CASE("render_rc writes labels, the working directory and the exec lines") {
    ImageConfig config;
    config.labels = {{"z.first", "one\ntwo"}, {"a.second", "v"}};
    config.working_dir = "/work";
    config.entrypoint = {"/entry.sh"};
    config.cmd = {"run", "it's"};
    CHECK(render_rc(config) == "# z.first one two\n"
                               "# a.second v\n"
                               "\n"
                               "mkdir -p \"/work\" 2> /dev/null\n"
                               "cd \"/work\" && unset OLDPWD || exit 1\n"
                               "\n"
                               "if [ -s /etc/rc.local ]; then\n"
                               "    . /etc/rc.local\n"
                               "fi\n"
                               "\n"
                               "if [ $# -gt 0 ]; then\n"
                               "    exec '/entry.sh' \"$@\"\n"
                               "else\n"
                               "    exec '/entry.sh' 'run' 'it'\\''s'\n"
                               "fi\n");
  }

  TEST_CASE("render_rc without labels, entrypoint or cmd runs /bin/sh in /") {
    const std::string rc = render_rc(ImageConfig{});
    CHECK(rc.rfind("mkdir -p \"/\" 2> /dev/null\n", 0) == 0);
    CHECK(rc.find("    exec  \"$@\"\n") != std::string::npos);
    CHECK(rc.find("    exec  '/bin/sh'\n") != std::string::npos);
  }

  TEST_CASE("environment, fstab and rc.local") {
    ImageConfig config;
    config.env = {"A=1", "B=two words"};
    config.volumes = {"/cache", "/data"};
    CHECK(render_environment(config) == "A=1\nB=two words\n");
    CHECK(render_fstab(config) ==
          "${ENROOT_ROOTFS}/cache /cache none x-create=dir,bind,rw,nosuid,nodev\n"
          "${ENROOT_ROOTFS}/data /data none x-create=dir,bind,rw,nosuid,nodev\n");
    CHECK(render_environment(ImageConfig{}).empty());
    CHECK(render_fstab(ImageConfig{}).empty());
    CHECK(render_rc_local() ==
          "# This file is sourced by /etc/rc when the container starts.\n"
          "# It can be used to manipulate the entrypoint or the command of the container.\n");
  }
}
