#include "../testutil.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace envlock;

TEST_SUITE_BEGIN("util");

TEST_CASE("util::sha256_hex") {
  CHECK(util::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(util::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // Incremental updates across block boundaries give the same digest.
  std::string big(1000, 'x');
  util::Sha256 h;
  for (char c : big) {
    h.update(&c, 1);
  }
  CHECK(h.finish_hex() == util::sha256_hex(big));
}

TEST_CASE("util::write_file_atomic") {
  util::TempDir dir = test::temp_dir();
  const auto p = dir.path() / "out.json";
  REQUIRE(util::write_file_atomic(p, "one"));
  CHECK(*util::read_file(p) == "one");
  REQUIRE(util::write_file_atomic(p, "two"));
  CHECK(*util::read_file(p) == "two");
  // No temporary file is left behind.
  int n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir.path())) {
    ++n;
  }
  CHECK(n == 1);
  const auto missing = util::write_file_atomic(dir.path() / "no" / "such" / "dir", "x");
  CHECK_FALSE(missing);
  CHECK(missing.error().code == ExitCode::environment);
}

TEST_CASE("util::AtomicFile without commit leaves nothing") {
  util::TempDir dir = test::temp_dir();
  const auto p = dir.path() / "partial";
  {
    auto f = util::AtomicFile::open(p);
    REQUIRE(f);
    REQUIRE(f->write("half"));
  }
  CHECK_FALSE(std::filesystem::exists(p));
  CHECK(std::filesystem::is_empty(dir.path()));
}

// Output targets (util::output_target): what each kind of path given as an output becomes.
TEST_CASE("util::write_file_atomic through a link to a regular file keeps the link") {
  util::TempDir dir = test::temp_dir();
  const auto real = dir.path() / "real.json";
  const auto link = dir.path() / "link.json";
  REQUIRE(util::write_file_atomic(real, "old"));
  std::filesystem::create_symlink("real.json", link);
  REQUIRE(util::write_file_atomic(link, "new"));
  CHECK(std::filesystem::is_symlink(link));
  CHECK(std::filesystem::read_symlink(link) == "real.json");
  CHECK(*util::read_file(real) == "new");
  // A dangling link names the file to create, beside the link's target.
  const auto dangling = dir.path() / "dangling";
  std::filesystem::create_symlink(dir.path() / "made.json", dangling);
  REQUIRE(util::write_file_atomic(dangling, "made"));
  CHECK(std::filesystem::is_symlink(dangling));
  CHECK(*util::read_file(dir.path() / "made.json") == "made");
}

TEST_CASE("util::write_file_atomic writes a device straight through, never replacing it") {
  const auto before = std::filesystem::status("/dev/null").type();
  REQUIRE(before == std::filesystem::file_type::character);
  REQUIRE(util::write_file_atomic("/dev/null", "report"));
  CHECK(std::filesystem::status("/dev/null").type() == std::filesystem::file_type::character);
  // A link to a device is written through too, and stays a link.
  util::TempDir dir = test::temp_dir();
  const auto link = dir.path() / "sink";
  std::filesystem::create_symlink("/dev/null", link);
  REQUIRE(util::write_file_atomic(link, "report"));
  CHECK(std::filesystem::is_symlink(link));
  const auto target = util::output_target(link);
  REQUIRE(target);
  CHECK(target->kind == util::OutputTarget::Kind::stream);
}

TEST_CASE("util::write_file_atomic writes a FIFO straight through") {
  util::TempDir dir = test::temp_dir();
  const auto fifo = dir.path() / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string got;
  std::thread reader([&] { got = util::read_file(fifo).value_or("read failed"); });
  const auto written = util::write_file_atomic(fifo, "through the pipe");
  reader.join();
  REQUIRE(written);
  CHECK(got == "through the pipe");
  CHECK(std::filesystem::status(fifo).type() == std::filesystem::file_type::fifo);
}

TEST_CASE("util::output_target: '-' and descriptor names are streams, a folder is an error") {
  for (const char* name : {"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"}) {
    const auto t = util::output_target(name);
    REQUIRE(t);
    CHECK(t->kind == util::OutputTarget::Kind::stream);
    CHECK(t->inherited_fd == 1);
  }
  const auto err = util::output_target("/dev/stderr");
  REQUIRE(err);
  CHECK(err->inherited_fd == 2);
  util::TempDir dir = test::temp_dir();
  const auto folder = util::write_file_atomic(dir.path(), "x");
  REQUIRE_FALSE(folder);
  CHECK(folder.error().code == ExitCode::usage);
  CHECK(folder.error().message == dir.path().string() + ": is a directory");
  // "-" written through a pipe that stands in for standard output.
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const int saved = ::dup(1);
  ::dup2(fds[1], 1);
  const auto to_stdout = util::write_file_atomic("-", "on stdout");
  ::dup2(saved, 1);
  ::close(saved);
  ::close(fds[1]);
  char buf[64] = {};
  const ssize_t n = ::read(fds[0], buf, sizeof buf);
  ::close(fds[0]);
  REQUIRE(to_stdout);
  CHECK(std::string(buf, static_cast<std::size_t>(n > 0 ? n : 0)) == "on stdout");
}

TEST_CASE("util::read_file errors") {
  const auto r = util::read_file("/nonexistent/envlock");
  REQUIRE_FALSE(r);
  CHECK(r.error().message == "/nonexistent/envlock: No such file or directory");
  CHECK(r.error().code == ExitCode::usage);
}

TEST_CASE("util::open_regular_file refuses FIFOs, devices and folders without opening them") {
  const util::TempDir dir = test::temp_dir();
  const auto fifo = dir.path() / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto zero = dir.path() / "zero";
  std::filesystem::create_symlink("/dev/zero", zero);
  const auto message = [](const std::filesystem::path& path, const std::string& shown = {}) {
    const auto r = util::read_regular_file(path, 100, shown);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ExitCode::usage);
    return r.error().message;
  };
  CHECK(message(fifo) == fifo.string() + ": is a FIFO, not a regular file");
  CHECK(message(zero, "zero") == "zero: is a character device, not a regular file");
  CHECK(message(dir.path(), "d") == "d: is a folder, not a regular file");
  CHECK(util::sha256_file(zero).error().message ==
        zero.string() + ": is a character device, not a regular file");
  CHECK(util::sha256_file_hex(fifo).error().message ==
        fifo.string() + ": is a FIFO, not a regular file");
  const auto big = dir.path() / "big";
  test::write_text(big, std::string(101, 'x'));
  CHECK(message(big, "big") == "big: larger than 100 bytes");
  const auto link = dir.path() / "link";
  std::filesystem::create_symlink("big", link);
  CHECK(util::read_regular_file(link, 101).value() == std::string(101, 'x'));
}

TEST_CASE("util::closest_match") {
  const std::vector<std::string> keys = {"image", "base", "sources", "python"};
  CHECK(util::closest_match("imgae", keys) == std::optional<std::string>("image"));
  CHECK(util::closest_match("pyhton", keys) == std::optional<std::string>("python"));
  CHECK_FALSE(util::closest_match("zzzzzz", keys).has_value());
}

TEST_CASE("util::run_process") {
  const auto r = util::run_process({"sh", "-c", "echo out; echo err >&2; exit 3"});
  REQUIRE(r);
  CHECK(r->exit_code == 3);
  CHECK(r->out == "out\n");
  CHECK(r->err == "err\n");
  const auto missing = util::run_process({"envlock-no-such-program"});
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == "envlock-no-such-program: not found in PATH");
  util::ProcessOptions o;
  o.stdin_data = "hello";
  const auto cat = util::run_process({"cat"}, o);
  REQUIRE(cat);
  CHECK(cat->out == "hello");
}

TEST_CASE("util::parse_json reports line and column") {
  const auto r = util::parse_json("{\n  \"a\": 1,\n  oops\n}", "x.json");
  REQUIRE_FALSE(r);
  CHECK(r.error().message.rfind("x.json:3:", 0) == 0);
}

TEST_CASE("util::invalid_utf8_at finds the first byte outside well-formed UTF-8") {
  CHECK_FALSE(util::invalid_utf8_at("plain ascii"));
  CHECK_FALSE(util::invalid_utf8_at("caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e"));
  CHECK(util::invalid_utf8_at("ab\xff") == 2U);
  CHECK(util::invalid_utf8_at("a\xc0\x80") == 1U);        // overlong NUL
  CHECK(util::invalid_utf8_at("\xed\xa0\x80") == 0U);     // a surrogate
  CHECK(util::invalid_utf8_at("\xf4\x90\x80\x80") == 0U); // above U+10FFFF
  CHECK(util::invalid_utf8_at("x\xe2\x82") == 1U);        // truncated at the end
}

TEST_CASE("util::parse_json refuses a number out of range with an input error") {
  const auto r = util::parse_json("{\"size\": 3333333333E33333333333333}", "x.json");
  REQUIRE_FALSE(r);
  CHECK(r.error().message == "x.json: invalid JSON: a number out of range");
  CHECK(r.error().code == ExitCode::usage);
}

TEST_CASE("util::parse_json refuses nesting deeper than 64 levels, outside strings only") {
  const std::string ok = std::string(64, '[') + std::string(64, ']');
  CHECK(util::parse_json(ok, "x.json"));
  const std::string in_string = "[\"" + std::string(1000, '[') + "\"]";
  CHECK(util::parse_json(in_string, "x.json"));
  const std::string deep = "{\"a\":\n" + std::string(200000, '[') + std::string(200000, ']') + "}";
  const auto r = util::parse_json(deep, "x.json");
  REQUIRE_FALSE(r);
  CHECK(r.error().message == "x.json:2:64: invalid JSON: nested deeper than 64 levels");
  CHECK(r.error().code == ExitCode::usage);
}

TEST_SUITE_END();
