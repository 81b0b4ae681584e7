#include "chain/chain.hpp"

#include "chain/verdict.hpp"
#include "provenance/keys.hpp"
#include "provenance/signing.hpp"
#include "provenance/test_result.hpp"
#include "util/base64.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"

#include <algorithm>
#include <system_error>

namespace envlock::chain {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::uintmax_t k_record_limit = std::uintmax_t{64} << 20;

const json* at(const json& value, std::initializer_list<const char*> path) {
  const json* cur = &value;
  for (const char* key : path) {
    if (!cur->is_object() || !cur->contains(key)) {
      return nullptr;
    }
    cur = &(*cur)[key];
  }
  return cur;
}

std::string text(const json& value, std::initializer_list<const char*> path) {
  const json* found = at(value, path);
  return found != nullptr && found->is_string() ? found->get<std::string>() : std::string();
}

// "3f2a9c1d0b7e…" for a sha256, "sha256:3f2a9c1d0b7e…" for a digest: enough to tell them apart.
std::string brief(const std::string& hash) {
  const std::size_t keep = hash.starts_with("sha256:") ? 19 : 12;
  return hash.size() > keep ? hash.substr(0, keep) + "…" : hash;
}

} // namespace

Result<SignedLinks> read_signed_links(const fs::path& envelope, const fs::path& public_key) {
  namespace pv = provenance;
  ENVLOCK_TRY_ASSIGN(const pv::Key key, pv::read_key(public_key, pv::KeyHalf::public_key));
  ENVLOCK_TRY_ASSIGN(const std::string body, util::read_file_limited(envelope, k_record_limit));
  const std::string origin = envelope.filename().string();
  ENVLOCK_TRY_ASSIGN(const pv::VerifiedStatement verified,
                     pv::verify_envelope(body, origin, key, public_key.string()));
  SignedLinks links;
  links.origin = origin;
  links.keyid = verified.keyid;
  const json& statement = verified.statement;
  links.lock_sha256 = text(statement, {"predicate", "buildDefinition", "externalParameters",
                                       "lockFile", "digest", "sha256"});
  if (links.lock_sha256.empty()) {
    return input_error(origin + ": the statement names no lock file "
                                "(predicate.buildDefinition.externalParameters.lockFile)");
  }
  const json* subjects = at(statement, {"subject"});
  if (subjects == nullptr || !subjects->is_array() || subjects->empty()) {
    return input_error(origin + ": the statement has no subject");
  }
  links.image_name = text((*subjects)[0], {"name"});
  const std::string image = text((*subjects)[0], {"digest", "sha256"});
  if (image.empty()) {
    return input_error(origin + ": subject[0] has no sha256 digest");
  }
  links.image_digest = "sha256:" + image;
  for (std::size_t i = 1; i < subjects->size(); ++i) {
    if (text((*subjects)[i], {"name"}).ends_with(".sqsh")) {
      links.sqsh_sha256 = text((*subjects)[i], {"digest", "sha256"});
    }
  }
  for (const char* field : {"finishedOn", "startedOn"}) {
    const std::string time = text(statement, {"predicate", "runDetails", "metadata", field});
    if (links.built_at.empty() && provenance::is_rfc3339_utc(time)) {
      links.built_at = time;
    }
  }
  return links;
}

LinkCheck check_squashfs_result(const SignedLinks& s, const formats::SquashfsResult& result,
                                const std::string& record) {
  LinkCheck check{record, "", "", std::nullopt, {}, "", ""};
  const std::string& reference = result.image_reference;
  const auto at_sign = reference.rfind('@');
  const std::string digest = at_sign == std::string::npos ? "" : reference.substr(at_sign + 1);
  const std::string& sqsh = result.sha256;
  if (digest != s.image_digest) {
    check.broken = record + ": image " + (digest.empty() ? "(no digest)" : brief(digest)) +
                   ": not the one " + s.origin + " signs (" + brief(s.image_digest) + ")";
  } else if (s.sqsh_sha256 && sqsh != *s.sqsh_sha256) {
    check.broken = record + ": .sqsh sha256 " + brief(sqsh) + ": not the one " + s.origin +
                   " signs (" + brief(*s.sqsh_sha256) + ")";
  } else {
    check.summary = "image " + brief(digest) + ", .sqsh " + brief(sqsh);
  }
  return check;
}

std::string counts_text(const formats::Summary& summary) {
  return std::to_string(summary.passed) + " passed, " + std::to_string(summary.failed) +
         " failed, " + std::to_string(summary.skipped) + " skipped";
}

namespace {

NodeOutcome node_outcome(const formats::Report& report) {
  const formats::Summary summary = formats::summarize(report.checks);
  return {summary.failed > 0 ? "fail" : "pass", counts_text(summary)};
}

} // namespace

std::string render_check(const LinkCheck& check) {
  if (!check.node) {
    return check.broken.empty() ? check.record + ": ok: " + check.summary : check.broken;
  }
  const NodeOutcome& node = *check.node;
  std::string verdict = node.outcome == "pass"   ? "node passed"
                        : node.outcome == "fail" ? "node failed"
                        : node.outcome.empty()   ? "no outcome recorded"
                                                 : "outcome '" + node.outcome + "'";
  if (!node.counts.empty()) {
    verdict += " (" + node.counts + ")";
  }
  if (!check.refused.empty()) {
    verdict += "; refused: " + check.refused;
  } else if (!check.not_counted.empty()) {
    verdict += "; not counted: " + check.not_counted;
  }
  if (!check.broken.empty()) {
    return check.broken + "; " + verdict;
  }
  return check.record + ": links hold: " + check.summary + "; " + verdict;
}

NodeRecord node_record(const formats::Report& report) {
  NodeRecord node{report.lock_sha256,   report.image_digest,
                  report.sqsh_sha256,   report.details.value("chain", json::object()),
                  node_outcome(report), {}};
  if (!node.chain.is_object()) {
    node.chain = json::object();
  }
  node.who.node = report.run.hostname;
  node.who.gpus = report.gpu_uuids;
  // A report that names a --root ran offline, whatever its mode says.
  node.who.mode = report.mode == "offline" || !report.run.root.empty() ? "offline"
                  : report.gpu_uuids.empty()                           ? "live"
                                                                       : "gpus";
  node.who.root = report.run.root;
  node.who.checked_at = report.run.started_at;
  return node;
}

LinkCheck check_report(const SignedLinks& s, const NodeRecord& report, const std::string& record,
                       const std::optional<std::string>& squashed) {
  LinkCheck check{record, "", "", report.outcome, report.who, "", ""};
  const auto missing = [&](const char* link, const char* key) {
    const std::string why = text(report.chain, {key});
    return record + ": " + link + " not recorded" + (why.empty() ? "" : " (" + why + ")");
  };
  const std::string& lock = report.lock_sha256;
  if (lock != s.lock_sha256) {
    check.broken = record + ": lock sha256 " + brief(lock) + ": not the one " + s.origin +
                   " signs (" + brief(s.lock_sha256) + ")";
    return check;
  }
  if (!report.image_digest) {
    check.broken = missing("image digest", "image_digest_missing");
    return check;
  }
  if (*report.image_digest != s.image_digest) {
    check.broken = record + ": image " + brief(*report.image_digest) + ": not the one " + s.origin +
                   " signs (" + brief(s.image_digest) + ")";
    return check;
  }
  const std::optional<std::string> expected_sqsh = s.sqsh_sha256 ? s.sqsh_sha256 : squashed;
  const std::optional<std::string>& sqsh = report.sqsh_sha256;
  if (!sqsh) {
    if (expected_sqsh) {
      check.broken = missing(".sqsh sha256", "sqsh_sha256_missing");
      return check;
    }
  } else if (!expected_sqsh) {
    check.broken = record + ": .sqsh sha256 " + brief(*sqsh) + ": cannot be checked: " + s.origin +
                   " signs no .sqsh and no --squashfs-result was given";
    return check;
  } else if (*sqsh != *expected_sqsh) {
    check.broken = record + ": .sqsh sha256 " + brief(*sqsh) + ": not the one " +
                   (s.sqsh_sha256 ? s.origin + " signs" : "the squashfs result records") + " (" +
                   brief(*expected_sqsh) + ")";
    return check;
  }
  check.summary = "lock " + brief(lock) + ", image " + brief(s.image_digest) +
                  (sqsh ? ", .sqsh " + brief(*sqsh) : std::string());
  return check;
}

Result<LinkCheck> check_report_file(const SignedLinks& s, const fs::path& path,
                                    const std::optional<std::string>& squashed,
                                    const NodeKeys* node_keys) {
  const std::string record = path.filename().string();
  // Read once, bounded: the verdict's signature is checked over these same bytes.
  ENVLOCK_TRY_ASSIGN(const std::string text, util::read_file_limited(path, k_record_limit));
  ENVLOCK_TRY_ASSIGN(const json value, util::parse_json(text, path.string()));
  if (is_envelope(value)) {
    auto verdict = verdict_record(text, record, s.keyid, node_keys);
    if (!verdict && verdict.error().code == ExitCode::failed) {
      // A verdict that does not verify is a broken link of its own; the others are checked.
      return LinkCheck{record, verdict.error().message, "", std::nullopt, {}, "", ""};
    }
    if (!verdict) {
      return std::move(verdict).error();
    }
    return check_report(s, *verdict, record, squashed);
  }
  auto report = formats::from_json<formats::Report>(value, record);
  if (!report) {
    return LinkCheck{record, report.error().message, "", std::nullopt, {}, "", ""};
  }
  return check_report(s, node_record(*report), record, squashed);
}

bool is_verdict(const json& doc) {
  if (!is_envelope(doc) || !doc["payload"].is_string()) {
    return false;
  }
  const auto payload = util::base64_decode_lenient(doc["payload"].get<std::string>());
  const json statement =
      payload ? json::parse(*payload, nullptr, /*allow_exceptions=*/false) : json();
  return statement.is_object() &&
         statement.value("predicateType", "") == provenance::k_test_result_predicate_type;
}

std::vector<fs::path> reports_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const fs::path& folder : {dir, dir / "nodes"}) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec)) {
      if (entry.path().extension() != ".json" || !entry.is_regular_file(ec)) {
        continue;
      }
      auto record = util::read_json_file(entry.path());
      if (record && record->is_object() &&
          (record->value("schema", "") == formats::k_report_schema || is_verdict(*record))) {
        out.push_back(entry.path());
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace envlock::chain
