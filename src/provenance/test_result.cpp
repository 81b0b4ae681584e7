#include "provenance/test_result.hpp"

#include "provenance/statement.hpp"
#include "util/field_reader.hpp"

#include <cctype>

namespace envlock::provenance {

using nlohmann::json;

const char* to_string(VerdictMode mode) {
  switch (mode) {
  case VerdictMode::gpus:
    return "gpus";
  case VerdictMode::live:
    return "live";
  case VerdictMode::offline:
    return "offline";
  }
  return "offline";
}

bool is_rfc3339_utc(std::string_view text) {
  constexpr std::string_view form = "dddd-dd-ddTdd:dd:ddZ";
  if (text.size() != form.size()) {
    return false;
  }
  for (std::size_t i = 0; i < form.size(); ++i) {
    const bool digit = std::isdigit(static_cast<unsigned char>(text[i])) != 0;
    if (form[i] == 'd' ? !digit : text[i] != form[i]) {
      return false;
    }
  }
  return true;
}

bool is_node_name(std::string_view name) {
  if (name.empty() || name.size() > 253 || name.front() == '.' || name.front() == '-') {
    return false;
  }
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '.' && c != '-' && c != '_') {
      return false;
    }
  }
  return true;
}

Result<VerdictRun> verdict_run(const formats::Report& report, const std::string& origin,
                               const std::string& signed_at) {
  VerdictRun run;
  run.node = report.run.hostname;
  if (!is_node_name(run.node)) {
    return input_error(origin + ": run.hostname '" + run.node +
                       "' is no node's name: the verdict would name no node");
  }
  run.checked_at = report.run.started_at;
  if (!is_rfc3339_utc(run.checked_at)) {
    return input_error(origin + ": run.started_at '" + run.checked_at +
                       "' is no time (YYYY-MM-DDTHH:MM:SSZ): the verdict would name no time");
  }
  run.gpus = report.gpu_uuids;
  run.mode = report.mode == "offline" || !report.run.root.empty() ? VerdictMode::offline
             : run.gpus.empty()                                   ? VerdictMode::live
                                                                  : VerdictMode::gpus;
  run.root = run.mode == VerdictMode::offline ? report.run.root : std::string();
  run.signed_at = signed_at;
  return run;
}

json to_json(const VerdictRun& run) {
  return {{"node", run.node},
          {"gpus", run.gpus},
          {"mode", to_string(run.mode)},
          {"root", run.root},
          {"checkedAt", run.checked_at},
          {"signedAt", run.signed_at}};
}

Result<VerdictRun> read_verdict_run(const json& predicate, const std::string& origin) {
  util::FieldReader p(predicate, origin, "predicate");
  util::FieldReader r = p.sub("envlock");
  if (p.error()) {
    return *p.error();
  }
  VerdictRun run;
  run.node = r.str("node");
  if (!r.error() && !is_node_name(run.node)) {
    r.fail(r.join("node"), "'" + run.node + "' is no node's name");
  }
  run.gpus = r.strings("gpus");
  const std::string mode = r.str("mode");
  if (mode == "gpus") {
    run.mode = VerdictMode::gpus;
  } else if (mode == "live") {
    run.mode = VerdictMode::live;
  } else if (mode == "offline") {
    run.mode = VerdictMode::offline;
  } else if (!r.error()) {
    r.fail(r.join("mode"), "'" + mode + "' is not gpus, live or offline");
  }
  run.root = r.str("root");
  for (const auto& [key, field] :
       {std::pair{"checkedAt", &run.checked_at}, std::pair{"signedAt", &run.signed_at}}) {
    *field = r.str(key);
    if (!r.error() && !is_rfc3339_utc(*field)) {
      r.fail(r.join(key), "'" + *field + "' is no time (YYYY-MM-DDTHH:MM:SSZ)");
    }
  }
  if (!r.error() && run.mode == VerdictMode::gpus && run.gpus.empty()) {
    r.fail(r.join("gpus"), "empty, but mode is gpus");
  }
  if (!r.error() && run.mode != VerdictMode::gpus && !run.gpus.empty()) {
    r.fail(r.join("gpus"), "GPUs named, but mode is " + mode);
  }
  if (!r.error() && run.mode != VerdictMode::offline && !run.root.empty()) {
    r.fail(r.join("root"), "'" + run.root + "', but mode is " + mode + ", not offline");
  }
  if (!r.error() && run.signed_at < run.checked_at) {
    r.fail(r.join("signedAt"), run.signed_at + " is before checkedAt " + run.checked_at);
  }
  ENVLOCK_TRY(r.status());
  return run;
}

Result<json> test_result_statement(const formats::Report& report, const VerdictRun& run,
                                   const std::string& origin) {
  const std::string& lock = report.lock_sha256;
  const std::string image = report.image_digest.value_or("");
  if (lock.empty()) {
    return input_error(origin + ": records no lock_sha256: the verdict would name no lock");
  }
  if (!image.starts_with("sha256:")) {
    return input_error(origin + ": records no image_digest: the verdict would name no image");
  }
  json subject = json::array({{{"name", "image"}, {"digest", digest_set(image)}}});
  if (report.sqsh_sha256 && !report.sqsh_sha256->empty()) {
    subject.push_back({{"name", "image.sqsh"}, {"digest", {{"sha256", *report.sqsh_sha256}}}});
  }
  json passed = json::array();
  json warned = json::array();
  json failed = json::array();
  for (const formats::CheckResult& check : report.checks) {
    (check.outcome == formats::Outcome::pass   ? passed
     : check.outcome == formats::Outcome::fail ? failed
                                               : warned)
        .push_back(check.id);
  }
  const std::string result = !failed.empty() ? "FAILED" : !warned.empty() ? "WARNED" : "PASSED";
  return json{{"_type", k_statement_type},
              {"subject", subject},
              {"predicateType", k_test_result_predicate_type},
              {"predicate",
               {{"result", result},
                {"configuration", json::array({{{"name", k_test_result_lock_name},
                                                {"digest", {{"sha256", lock}}}}})},
                {"envlock", to_json(run)},
                {"passedTests", passed},
                {"warnedTests", warned},
                {"failedTests", failed}}}};
}

} // namespace envlock::provenance
