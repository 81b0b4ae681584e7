// The verifier's test image: tests/data/verify/make_rootfs.sh run into a fresh temporary folder,
// and helpers to run the checks against it.
#pragma once

#include "../testutil.hpp"
#include "util/fs.hpp"
#include "verify/check.hpp"
#include "verify/options.hpp"
#include "verify/report/report.hpp"

#include <filesystem>
#include <string>

namespace envlock::test {

// A fresh unpacked-image fixture under a TempDir: root() is the image's "/".
class VerifyRootfs {
public:
  VerifyRootfs();
  [[nodiscard]] std::filesystem::path root() const { return m_dir.path() / "root"; }
  [[nodiscard]] std::filesystem::path dir() const { return m_dir.path(); }
  // The venv's site-packages folder (host path).
  [[nodiscard]] std::filesystem::path venv_site() const {
    return root() / "opt/venv/lib/python3.12/site-packages";
  }
  // Offline options for this root.
  [[nodiscard]] verify::VerifyOptions offline() const;

private:
  util::TempDir m_dir = test::temp_dir("envlock-verify-test");
};

// The check with `id`; throws when the report has none.
const verify::CheckResult& find_check(const verify::Report& report, const std::string& id);

} // namespace envlock::test
