#include "node/health/finding.hpp"

namespace envlock::node::health {

const char* to_string(Severity severity) {
  return severity == Severity::fail ? "fail" : "warn";
}

std::string Finding::drain_line() const {
  return id + (subject.empty() ? "" : " " + subject) + ": " + action;
}

std::string Finding::text() const {
  return (subject.empty() ? "" : subject + ": ") + what + "; " + action;
}

nlohmann::json finding_to_json(const Finding& f) {
  return {{"id", f.id},           {"severity", to_string(f.severity)},
          {"subject", f.subject}, {"what", f.what},
          {"action", f.action},   {"source", f.source}};
}

} // namespace envlock::node::health
