#include "node/host_check.hpp"

#include "node/expectation.hpp"
#include "node/facts.hpp"
#include "util/strings.hpp"

namespace envlock::node {

using nlohmann::json;

namespace {

// For an expected plain text that did not match ("Debian 12" against the fact "Debian GNU/Linux
// 12"): what the fact is and where it came from, and that a text matches the whole of it.
std::string plain_text_hint(const verify::CheckResult& r, const lock::HostExpectation& expected) {
  for (const auto& entry : expected.entries) {
    if (entry.number || entry.text.empty() ||
        entry.text.find_first_of("*?[<>=!~,") != std::string::npos) {
      continue;
    }
    std::string source;
    if (r.details.contains("source") && r.details["source"].is_string()) {
      source = " (" + r.details["source"].get<std::string>() + ")";
    }
    const std::string first = entry.text.substr(0, entry.text.find(' '));
    return "; the fact is the whole text '" + r.found + "'" + source +
           ", which an expected text must equal: write it as found, or as a glob such as '" +
           first + "*'";
  }
  return "";
}

verify::CheckResult check_one(const json& facts, const std::string& key,
                              const lock::HostExpectation& expected) {
  verify::CheckResult r;
  r.id = "host." + key;
  r.title = "Host " + key;
  r.expected = expectation_text(expected);
  r.outcome = verify::Outcome::fail;
  const json& all = facts.contains("facts") ? facts["facts"] : json::object();
  const auto it = all.find(key);
  if (it == all.end() || !it->is_object()) {
    r.reason = "unknown host fact '" + key + "'";
    if (const auto near = util::closest_match(key, fact_keys())) {
      r.reason += "; did you mean '" + *near + "'?";
    }
    return r;
  }
  const json& value = it->value("value", json());
  if (it->contains("source") && (*it)["source"].is_string()) {
    r.details["source"] = (*it)["source"];
  }
  if (!value.is_string()) {
    r.reason = "missing: " + it->value("missing", std::string("no value"));
    return r;
  }
  r.found = value.get<std::string>();
  const auto ok = matches_expectation(r.found, expected);
  if (!ok) {
    r.reason = "expect.host." + key + ": " + ok.error().message;
    return r;
  }
  if (*ok) {
    r.outcome = verify::Outcome::pass;
  } else {
    r.reason = "found " + r.found + ", expected " + r.expected + plain_text_hint(r, expected);
  }
  return r;
}

} // namespace

std::vector<verify::CheckResult> check_host(const json& facts,
                                            const lock::HostExpect& expect_host) {
  std::vector<verify::CheckResult> out;
  for (const auto& [key, expected] : expect_host) {
    out.push_back(check_one(facts, key, expected));
  }
  return out;
}

} // namespace envlock::node
