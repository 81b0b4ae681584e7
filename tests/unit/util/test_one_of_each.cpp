// The one temporary folder, the one launcher and the one shell quote (util/fs.hpp,
// util/process.hpp, util/shell_quote.hpp), as every module uses them.
#include "../testutil.hpp"
#include "util/fd.hpp"
#include "util/fs.hpp"
#include "util/process.hpp"
#include "util/shell_quote.hpp"

#include <array>
#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

using namespace envlock;
namespace fs = std::filesystem;

TEST_SUITE("util.one_of_each") {
  TEST_CASE("a temporary folder in a folder given, removed with its contents") {
    const util::TempDir parent = test::temp_dir();
    fs::path made;
    {
      auto stage = util::TempDir::create_in(parent.path(), ".image.sqsh.envlock");
      REQUIRE_MESSAGE(stage.has_value(), stage.error().message);
      made = stage->path();
      CHECK(made.parent_path() == parent.path());
      CHECK(made.filename().string().starts_with(".image.sqsh.envlock."));
      test::write_text(made / "inside/file", "x");
    }
    CHECK_FALSE(fs::exists(made));
    const auto missing = util::TempDir::create_in(parent.path() / "nowhere", "k.1");
    REQUIRE_FALSE(missing.has_value());
    CHECK(missing.error().code == ExitCode::environment);
    CHECK(missing.error().message == "cannot create a temporary folder in " +
                                         (parent.path() / "nowhere").string() +
                                         ": No such file or directory");
  }

  TEST_CASE("a started program writes to the descriptors given, read as it comes") {
    const util::TempDir dir = test::temp_dir();
    std::array<int, 2> fds{};
    REQUIRE(::pipe2(fds.data(), O_CLOEXEC) == 0);
    util::Fd read_end(fds[0]);
    util::Fd write_end(fds[1]);
    const util::Fd err(::open((dir.path() / "err").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
    REQUIRE(err);
    util::ProcessOptions options;
    options.stdout_fd = write_end.get();
    options.stderr_fd = err.get();
    auto started = util::start_process({"sh", "-c", "echo out; echo err >&2; exit 3"}, options);
    REQUIRE_MESSAGE(started.has_value(), started.error().message);
    write_end = util::Fd();
    std::string out;
    std::array<char, 64> buf{};
    for (ssize_t n = 0; (n = ::read(read_end.get(), buf.data(), buf.size())) > 0;) {
      out.append(buf.data(), static_cast<std::size_t>(n));
    }
    CHECK(out == "out\n");
    CHECK(started->wait() == 3);
    CHECK(util::read_file(dir.path() / "err").value() == "err\n");
    const auto absent = util::start_process({"envlock-no-such-program"}, {});
    REQUIRE_FALSE(absent.has_value());
    CHECK(absent.error().message == "envlock-no-such-program: not found in PATH");
  }

  TEST_CASE("run_process captures, or writes to a descriptor given") {
    const util::TempDir dir = test::temp_dir();
    const util::Fd file(::open((dir.path() / "out").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600));
    REQUIRE(file);
    util::ProcessOptions options;
    options.stdout_fd = file.get();
    const auto run = util::run_process({"sh", "-c", "echo to-file; echo captured >&2"}, options);
    REQUIRE(run.has_value());
    CHECK(run->out.empty());
    CHECK(run->err == "captured\n");
    CHECK(util::read_file(dir.path() / "out").value() == "to-file\n");
  }

  TEST_CASE("one shell quote: always, or only when needed") {
    using util::QuoteWhen;
    CHECK(util::shell_quote("plain") == "'plain'");
    CHECK(util::shell_quote("") == "''");
    CHECK(util::shell_quote("it's $HOME") == "'it'\\''s $HOME'");
    CHECK(util::shell_quote("a\nb") == "'a\nb'");
    CHECK(util::shell_quote("--extra", QuoteWhen::needed) == "--extra");
    CHECK(util::shell_quote("a=b,c:d/e@f%g+h", QuoteWhen::needed) == "a=b,c:d/e@f%g+h");
    CHECK(util::shell_quote("", QuoteWhen::needed) == "''");
    CHECK(util::shell_quote("two words", QuoteWhen::needed) == "'two words'");
  }
}
