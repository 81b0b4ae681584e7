#include "../testutil.hpp"
#include "importer/audit_log.hpp"
#include "importer/audit_record.hpp"
#include "importer/trusted_path.hpp"
#include "trusted_dir.hpp"

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
          "log:6: not an envlock.importer-audit/v2");
  }

  TEST_CASE("root's lines are appended to root's own log, never created, and read back") {
    if (::geteuid() != 0) {
      return; // only root writes the file (users' lines go to syslog), and only in root's folders
    }
    const envlock::util::TempDir tmp = envlock::test::trusted_temp_dir();
    const fs::path log = tmp.path() / "audit.log";
    CHECK(append_audit(log, sample_entry())
              .starts_with(log.string() + ": not written: " + log.string() +
                           ": No such file or directory"));
    envlock::test::write_text(log, "");
    REQUIRE(::chmod(log.c_str(), 0644) == 0);
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
    CHECK(read->entries[1].time != "2026-12-02T10:04:05.123Z"); // when the line was written
    REQUIRE(read->problems.size() == 1);
    CHECK(read->problems[0].starts_with(log.string() + ":3: "));
  }

  TEST_CASE("root never writes a log others can write, a FIFO or a link, and never blocks") {
    if (::geteuid() != 0) {
      return;
    }
    const envlock::util::TempDir tmp = envlock::test::trusted_temp_dir();
    const fs::path log = tmp.path() / "audit.log";
    envlock::test::write_text(log, "");
    REQUIRE(::chmod(log.c_str(), 0622) == 0);
    CHECK(append_audit(log, sample_entry()) ==
          log.string() + ": not written: " + log.string() +
              ": writable (mode 0622) (root's lines go only to a file of root's that no one else "
              "can write)");
    fs::remove(log);
    REQUIRE(::mkfifo(log.c_str(), 0644) == 0);
    CHECK(append_audit(log, sample_entry()).find("No such device or address") !=
          std::string::npos); // no reader: refused at once, not blocked
    fs::remove(log);
    envlock::test::write_text(tmp.path() / "real.log", "");
    fs::create_symlink(tmp.path() / "real.log", log);
    CHECK(append_audit(log, sample_entry()) ==
          log.string() + ": not written: " + log.string() +
              ": a symbolic link (root's lines go only to a file of root's that no one else can "
              "write)");
    CHECK(fs::file_size(tmp.path() / "real.log") == 0);
  }

  TEST_CASE("a line is bounded, cut at a character, and a v1 line still reads") {
    AuditEntry e = sample_entry();
    e.warnings.assign(100, std::string(2000, 'w') + "\xc3\xa9");
    e.message = std::string(50000, 'm');
    const std::string line = audit_line(e);
    CHECK(line.size() <= k_max_audit_line);
    const auto back = audit_from_json(nlohmann::json::parse(line), "log:1");
    REQUIRE(back.has_value());
    CHECK(back->warnings.back() == "96 more not shown");
    nlohmann::json v1 = to_json(sample_entry());
    v1["schema"] = "envlock.importer-audit/v1";
    v1.erase("job_claimed");
    v1.erase("waits");
    v1["sqsh"].erase("checked");
    const auto old = audit_from_json(v1, "log:2");
    REQUIRE(old.has_value());
    CHECK(old->job == "1234");
    CHECK(!old->job_claimed);
  }

  TEST_CASE("the trust walk: root's entries only, no group or other write, no sticky, no link") {
    if (::geteuid() != 0) {
      return; // the entries made here are not root's
    }
    const envlock::util::TempDir tmp = envlock::test::trusted_temp_dir();
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
    CHECK(*untrusted_because(file) == tmp.path().string() + ": writable by others (mode 1777)");
    REQUIRE(::chmod(tmp.path().c_str(), 0775) == 0);
    CHECK(*untrusted_because(file) == tmp.path().string() + ": writable by others (mode 0775)");
    REQUIRE(::chmod(tmp.path().c_str(), 0755) == 0);
    // A link is never followed, even to a file of root's.
    const fs::path link = tmp.path() / "link.yaml";
    fs::create_symlink(file, link);
    CHECK(*untrusted_because(link) == link.string() + ": a symbolic link");
    fs::create_directory_symlink(tmp.path(), tmp.path() / "up");
    CHECK(*untrusted_because(tmp.path() / "up" / "importer.yaml") ==
          (tmp.path() / "up").string() + ": a symbolic link");
    // A folder of a user's under root's.
    const fs::path sub = tmp.path() / "sub";
    fs::create_directory(sub);
    envlock::test::write_text(sub / "record.json", "{}");
    REQUIRE(::chown(sub.c_str(), 1000, 1000) == 0);
    CHECK(*untrusted_because(sub / "record.json") ==
          sub.string() + ": owned by uid 1000, not root");
    // What is opened is what was checked; a FIFO does not block the walk.
    auto opened = open_trusted(file, EntryKind::file);
    REQUIRE(opened.has_value());
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK(opened->st.st_ino == st.st_ino);
    REQUIRE(::mkfifo((tmp.path() / "fifo").c_str(), 0644) == 0);
    CHECK(open_trusted(tmp.path() / "fifo", EntryKind::file).error().message ==
          (tmp.path() / "fifo").string() + ": not a regular file");
  }
}
