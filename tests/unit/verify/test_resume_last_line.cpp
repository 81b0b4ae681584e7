// The resume check's reason for a failed run quotes the real error: recorded torchrun outputs from
// an H200 machine (a rank raising, a child failing to import), whose last exception line is the
// launcher's ChildFailedError, and planted lines.
#include "../testutil.hpp"
#include "util/fs.hpp"
#include "verify/resume/runs.hpp"

#include <doctest/doctest.h>

using namespace envlock;

TEST_SUITE_BEGIN("verify");

namespace {

util::ProcessResult recorded_failure(const std::string& name) {
  auto text = util::read_file(test::data_path("verify/resume/" + name));
  REQUIRE_MESSAGE(text, text.error().message);
  return util::ProcessResult{1, "", *text};
}

} // namespace

TEST_CASE("last_line: a rank's exception under torchrun, not the launcher's ChildFailedError") {
  CHECK(verify::last_line(recorded_failure("torchrun-rank-failure.log")) ==
        "RuntimeError: planted failure on rank 1: the checkpoint's optimizer state is missing");
}

TEST_CASE("last_line: a child that cannot import, under torchrun") {
  CHECK(verify::last_line(recorded_failure("torchrun-import-failure.log")) ==
        "ModuleNotFoundError: No module named 'megatron_that_is_not_installed'");
}

TEST_CASE("last_line: torchrun's [rankN]: prefix, an INFO line last, the trainer's own error") {
  CHECK(verify::last_line({1, "",
                           "[rank0]: Traceback (most recent call last):\n"
                           "[rank0]: ValueError: bad shape\n"
                           "[2026-12-01 10:00:00] INFO done\n"}) ==
        "[rank0]: ValueError: bad shape");
  CHECK(verify::last_line({1, "", "loading\nenvlock-resume: error: no checkpoint in /c\nbye\n"}) ==
        "envlock-resume: error: no checkpoint in /c");
  CHECK(verify::last_line({1, "", "\n=====\n"}) == "no output");
}

TEST_SUITE_END();
