#include "../testutil.hpp"
#include "importer/audit_log.hpp"
#include "importer/audit_record.hpp"
#include "importer/trusted_path.hpp"

#include <doctest/doctest.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace envlock::importer;

namespace {

AuditEntry sample_entry() {
  AuditEntry e;
  e.time = "2026-12-02T10:04:05.123Z";
  e.node = "node17";
  e.job = "1234";
  e.step = "0";
  e.uid = 1000;
  e.user = "alice";
  e.command = "get";
  e.image = "docker://registry.example.invalid#ml/train:v1";
  e.config = "/etc/envlock/importer.yaml";
  e.pin_role = "base_image";
  e.pin_lock = "/etc/envlock/locks/train.lock.json";
  e.pin_digest = "sha256:" + std::string(64, 'a');
  e.pin_manifest_digest = "sha256:" + std::string(64, 'b');
  e.sqsh_path = "/var/cache/envlock-shared/sqsh/" + std::string(64, 'c') + ".sqsh";
  e.sqsh_sha256 = std::string(64, 'c');
  e.sqsh_source = "shared";
  e.warnings = {"evicted sha256-x (least recently used)"};
  return e;
}

} // namespace

TEST_SUITE("importer.audit") {
  TEST_CASE("an audit line reads back as the entry it was made from") {
    const AuditEntry e = sample_entry();
    const std::string line = audit_line(e);
    CHECK(line.ends_with("}\n"));
    CHECK(line.find('\n') == line.size() - 1);
    const auto back = audit_from_json(nlohmann::json::parse(line), "log:1");
    REQUIRE(back.has_value());
    CHECK(*back == e);
  }

  TEST_CASE("a line with an unknown, missing or mistyped key is refused, naming it") {
    nlohmann::json value = to_json(sample_entry());
    value["pin"]["extra"] = 1;
    CHECK(audit_from_json(value, "log:3").error().message == "log:3: pin.extra: unknown key");
    value = to_json(sample_entry());
    value.erase("job");
    CHECK(audit_from_json(value, "log:4").error().message == "log:4: job: missing");
    value = to_json(sample_entry());
    value["uid"] = "1000";
    CHECK(audit_from_json(value, "log:5").error().message ==
          "log:5: uid: must be an integer from 0 to 4294967295");
    value = to_json(sample_entry());
    value["schema"] = "envlock.importer-audit/v9";
    CHECK(audit_from_json(value, "log:6").error().message ==
          "log:6: not an envlock.importer-audit/v1");
  }

  TEST_CASE("the log is appended to, never created, and read back skipping bad lines") {
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    const fs::path log = tmp.path() / "audit.log";
    CHECK(append_audit(log, sample_entry()) ==
          log.string() + ": cannot append: No such file or directory");
    envlock::test::write_text(log, "");
    CHECK(append_audit(log, sample_entry()).empty());
    AuditEntry refused = sample_entry();
    refused.job = "1235";
    refused.outcome = AuditOutcome::refused;
    refused.exit_code = 1;
    CHECK(append_audit(log, refused).empty());
    {
      std::ofstream out(log, std::ios::app);
      out << "not json\n";
    }
    const auto read = read_audit_log(log);
    REQUIRE(read.has_value());
    REQUIRE(read->entries.size() == 2);
    CHECK(read->entries[1].job == "1235");
    CHECK(read->entries[1].outcome == AuditOutcome::refused);
    REQUIRE(read->problems.size() == 1);
    CHECK(read->problems[0].starts_with(log.string() + ":3: "));
  }

  TEST_CASE("a path is trusted when root owns it and every folder above, none writable by others") {
    if (::geteuid() != 0) {
      return; // the temporary folder is not root's
    }
    const envlock::util::TempDir tmp = envlock::test::temp_dir();
    const fs::path file = tmp.path() / "importer.yaml";
    envlock::test::write_text(file, "x");
    REQUIRE(::chmod(file.c_str(), 0644) == 0);
    CHECK(!untrusted_because(file));
    REQUIRE(::chmod(file.c_str(), 0646) == 0);
    CHECK(*untrusted_because(file) == file.string() + ": writable by others (mode 0646)");
    REQUIRE(::chmod(file.c_str(), 0644) == 0);
    REQUIRE(::chmod(tmp.path().c_str(), 0777) == 0);
    CHECK(*untrusted_because(file) == tmp.path().string() + ": writable by others (mode 0777)");
    REQUIRE(::chmod(tmp.path().c_str(), 01777) == 0);
    CHECK(!untrusted_because(file)); // sticky, like /tmp
    REQUIRE(::chmod(tmp.path().c_str(), 0700) == 0);
    const fs::path link = tmp.path() / "link.yaml";
    const fs::path other = tmp.path() / "other.yaml";
    envlock::test::write_text(other, "y");
    REQUIRE(::chown(other.c_str(), 1000, 1000) == 0);
    fs::create_symlink(other, link);
    CHECK(*untrusted_because(link) == other.string() + ": owned by uid 1000, not root");
  }
}
