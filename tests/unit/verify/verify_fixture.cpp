#include "verify_fixture.hpp"

#include "../testutil.hpp"
#include "util/process.hpp"

#include <stdexcept>

namespace envlock::test {

VerifyRootfs::VerifyRootfs() {
  auto result =
      util::run_process({"bash", data_path("verify/make_rootfs.sh").string(), root().string()});
  if (!result || result->exit_code != 0) {
    throw std::runtime_error("make_rootfs.sh failed: " + (result ? result->err : ""));
  }
}

verify::VerifyOptions VerifyRootfs::offline() const {
  verify::VerifyOptions options;
  options.root = root();
  return options;
}

const verify::CheckResult& find_check(const verify::Report& report, const std::string& id) {
  for (const auto& check : report.checks) {
    if (check.id == id) {
      return check;
    }
  }
  throw std::runtime_error("no check " + id + " in the report");
}

} // namespace envlock::test
