#include "squashfs/enroot_files.hpp"

#include <doctest/doctest.h>

using namespace envlock::squashfs;

TEST_SUITE("squashfs") {

  TEST_CASE("bash_quote matches bash 5's ${x@Q}") {
    CHECK(bash_quote("plain") == "'plain'");
    CHECK(bash_quote("") == "''");
    CHECK(bash_quote("it's") == "'it'\\''s'");
    CHECK(bash_quote("$HOME *") == "'$HOME *'");
    CHECK(bash_quote("tab\there") == "$'tab\\there'");
    CHECK(bash_quote("a'b\x01") == "$'a\\'b\\001'");
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
