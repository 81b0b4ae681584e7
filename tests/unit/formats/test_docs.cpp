// docs/formats is executable: every JSON example of every page is read by the reader of what it
// shows and written back by its writer, and the bytes must be the example's, so a page can show
// nothing envlock would not write. A page (or an example) no reader is registered for fails.
#include "../testutil.hpp"
#include "attest/artifact.hpp"
#include "formats/build_result.hpp"
#include "formats/distribute_report.hpp"
#include "formats/fleet_report.hpp"
#include "formats/image_record.hpp"
#include "formats/node_facts.hpp"
#include "formats/provenance.hpp"
#include "formats/report.hpp"
#include "formats/rollback_report.hpp"
#include "formats/rollout_state.hpp"
#include "formats/squashfs_result.hpp"
#include "importer/audit_record.hpp"
#include "importer/stamp.hpp"
#include "lock/lock.hpp"
#include "provenance/dsse.hpp"
#include "provenance/test_result.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <doctest/doctest.h>
#include <functional>
#include <map>

using namespace envlock;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// An example's text written back by the reader and writer of what it shows; an error says why
// it does not read.
using Rewrite = std::function<Result<std::string>(const std::string& text)>;

template <class T> Result<std::string> record(const std::string& text) {
  ENVLOCK_TRY_ASSIGN(const json value, util::parse_json(text, "example"));
  ENVLOCK_TRY_ASSIGN(const T read, formats::from_json<T>(value, "example"));
  return util::canonical_json(formats::to_json(read));
}

// A part of a lock: its keys put into a whole lock (the handover fixture's), read and written
// as a lock, and the same keys taken back out.
Result<std::string> lock_part(const std::string& text) {
  ENVLOCK_TRY_ASSIGN(const json part, util::parse_json(text, "example"));
  ENVLOCK_TRY_ASSIGN(const lock::Lock base,
                     lock::read_lock(test::data_path("handover/full/envlock.lock.json")));
  json whole = lock::to_json(base);
  for (const auto& [key, value] : part.items()) {
    whole[key] = value;
  }
  ENVLOCK_TRY_ASSIGN(const lock::Lock read, lock::from_json(whole, "example"));
  const json written = lock::to_json(read);
  json out = json::object();
  for (const auto& [key, value] : part.items()) {
    out[key] = written.contains(key) ? written[key] : json();
  }
  return util::canonical_json(out);
}

// A verified stamp, written by the importer's own writer.
Result<std::string> stamp(const std::string& text) {
  ENVLOCK_TRY_ASSIGN(const json value, util::parse_json(text, "example"));
  const auto dir = test::temp_dir();
  const importer::FileIdentity id{value.at("device"), value.at("inode"), value.at("size"),
                                  value.at("mtime_ns"), value.at("ctime_ns")};
  ENVLOCK_TRY(importer::write_stamp_of(dir.path() / "stamp.json",
                                       value.at("path").get<std::string>(), id,
                                       value.at("sha256").get<std::string>()));
  return util::read_file(dir.path() / "stamp.json");
}

// The importer's audit line: compact JSON, one line.
Result<std::string> audit(const std::string& text) {
  ENVLOCK_TRY_ASSIGN(const json value, util::parse_json(text, "example"));
  ENVLOCK_TRY_ASSIGN(const importer::AuditEntry entry, importer::audit_from_json(value, "example"));
  return importer::audit_line(entry);
}

// A DSSE envelope, read as strictly as `envlock provenance verify` reads one.
Result<std::string> envelope(const std::string& text) {
  ENVLOCK_TRY_ASSIGN(const provenance::Envelope read, provenance::parse_envelope(text, "example"));
  return util::canonical_json(provenance::to_json(read));
}

std::vector<std::pair<int, std::string>> json_examples(const std::string& page);

// The artifact manifest `envlock attest push` writes for the verification report of report.md's
// example, attached to the subject the example names.
Result<std::string> report_artifact(const std::string& text) {
  ENVLOCK_TRY_ASSIGN(const json manifest, util::parse_json(text, "example"));
  ENVLOCK_TRY_ASSIGN(const std::string page,
                     util::read_file(fs::path(ENVLOCK_SOURCE_DIR) / "docs/formats/report.md"));
  const auto reports = json_examples(page);
  if (reports.empty()) {
    return input_error("docs/formats/report.md: no JSON example");
  }
  const std::string title =
      manifest["layers"][0]["annotations"].value("org.opencontainers.image.title", std::string());
  ENVLOCK_TRY_ASSIGN(const attest::AttestationFile file,
                     attest::classify(title, reports.front().second));
  const json& subject = manifest["subject"];
  return attest::artifact_manifest(file, {subject.value("mediaType", std::string()),
                                          subject.value("digest", std::string()),
                                          subject.value("size", std::uint64_t{0})}) +
         "\n";
}

// A node verdict's statement: the report it says (its links, and each test's outcome) written
// back by the statement's own writer.
Result<std::string> verdict(const std::string& text) {
  ENVLOCK_TRY_ASSIGN(const json statement, util::parse_json(text, "example"));
  formats::Report report;
  const json& predicate = statement["predicate"];
  report.lock_sha256 = predicate["configuration"][0]["digest"].value("sha256", std::string());
  for (const auto& subject : statement["subject"]) {
    const std::string sha = subject["digest"].value("sha256", std::string());
    if (subject.value("name", std::string()) == "image") {
      report.image_digest = "sha256:" + sha;
    } else {
      report.sqsh_sha256 = sha;
    }
  }
  for (const auto& [key, outcome] : {std::pair{"passedTests", formats::Outcome::pass},
                                     std::pair{"warnedTests", formats::Outcome::skip},
                                     std::pair{"failedTests", formats::Outcome::fail}}) {
    for (const auto& id : predicate[key]) {
      formats::CheckResult check;
      check.id = id.get<std::string>();
      check.outcome = outcome;
      report.checks.push_back(std::move(check));
    }
  }
  ENVLOCK_TRY_ASSIGN(const provenance::VerdictRun run,
                     provenance::read_verdict_run(predicate, "example"));
  ENVLOCK_TRY_ASSIGN(const json written, provenance::test_result_statement(report, run, "example"));
  return util::canonical_json(written);
}

// An abridged example (… stands for what differs by image): it must be a JSON object; its bytes
// are not envlock's, which sbom's tests check against CycloneDX's own validator instead.
Result<std::string> abridged(const std::string& text) {
  ENVLOCK_TRY_ASSIGN(const json value, util::parse_json(text, "example"));
  if (!value.is_object()) {
    return input_error("example: not a JSON object");
  }
  return text;
}

// Each page of docs/formats and the reader of each of its JSON examples, in order.
const std::map<std::string, std::vector<Rewrite>>& pages() {
  static const std::map<std::string, std::vector<Rewrite>> all = {
      {"attestation.md", {report_artifact, verdict}},
      {"build-result.md", {record<formats::BuildResult>}},
      {"distribute-report.md", {record<formats::DistributeReport>}},
      {"fleet-report.md", {record<formats::FleetReport>}},
      {"image-record.md", {record<formats::ImageRecord>, stamp}},
      {"importer-audit.md", {audit}},
      {"importer-config.md", {}},
      {"indexed-dataset.md", {}},
      {"lock.md", {lock_part, lock_part, lock_part}},
      {"node-facts.md", {record<formats::NodeFacts>}},
      {"provenance.md", {record<formats::Statement>, envelope}},
      {"report.md", {record<formats::Report>}},
      {"rollback-report.md", {record<formats::RollbackReport>}},
      {"rollout-state.md", {record<formats::RolloutState>}},
      {"sbom.md", {abridged}},
      {"squashfs-result.md", {record<formats::SquashfsResult>}},
      {"tree-digest.md", {}}};
  return all;
}

// The ```json blocks of a Markdown page, each with the line it starts on.
std::vector<std::pair<int, std::string>> json_examples(const std::string& page) {
  std::vector<std::pair<int, std::string>> out;
  std::optional<std::pair<int, std::string>> open;
  int number = 0;
  for (const auto& line : util::split(page, '\n')) {
    ++number;
    if (open) {
      if (line == "```") {
        out.push_back(std::move(*open));
        open.reset();
      } else {
        open->second += line + "\n";
      }
    } else if (line == "```json") {
      open = std::make_pair(number + 1, std::string());
    }
  }
  return out;
}

} // namespace

TEST_SUITE("formats.docs") {
  TEST_CASE("every JSON example of docs/formats is what envlock writes, byte for byte") {
    const fs::path dir = fs::path(ENVLOCK_SOURCE_DIR) / "docs" / "formats";
    std::size_t examples = 0;
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) {
      if (entry.path().extension() == ".md") {
        names.push_back(entry.path().filename().string());
      }
    }
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
      const auto page = pages().find(name);
      REQUIRE_MESSAGE(page != pages().end(), ("docs/formats/" + name + ": no reader registered"));
      const auto text = util::read_file(dir / name);
      REQUIRE(text.has_value());
      const auto blocks = json_examples(*text);
      REQUIRE_MESSAGE(blocks.size() == page->second.size(),
                      ("docs/formats/" + name + ": " + std::to_string(blocks.size()) +
                       " JSON examples, " + std::to_string(page->second.size()) + " readers"));
      for (std::size_t i = 0; i < blocks.size(); ++i) {
        const auto& [line, block] = blocks[i];
        const std::string where = "docs/formats/" + name + ":" + std::to_string(line);
        const auto written = page->second[i](block);
        REQUIRE_MESSAGE(written.has_value(), (where + ": " + written.error().message));
        CHECK_MESSAGE(*written == block, (where + ": written back as\n" + *written));
        ++examples;
      }
    }
    CHECK(examples == 19);
  }
}
