#include "build/lint/report.hpp"

#include "formats/schemas.hpp"

#include <array>
#include <cctype>
#include <map>

namespace envlock::build {

namespace {

const char* severity_word(Severity severity) {
  return severity == Severity::error ? "error" : "warning";
}

std::string count_of(std::size_t n, const std::string& word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::size_t errors_in(const std::vector<Finding>& findings) {
  std::size_t errors = 0;
  for (const auto& finding : findings) {
    errors += finding.severity == Severity::error ? 1 : 0;
  }
  return errors;
}

// A file name as a relative URI reference: every byte but the unreserved ones and '/' escaped.
std::string uri_of(const std::string& name) {
  static constexpr std::array<char, 16> k_hex = {'0', '1', '2', '3', '4', '5', '6', '7',
                                                 '8', '9', 'A', 'B', 'C', 'D', 'E', 'F'};
  std::string out;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) != 0 || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += c;
    } else {
      out += '%';
      out += k_hex.at(byte >> 4U);
      out += k_hex.at(byte & 0xFU);
    }
  }
  return out;
}

} // namespace

std::size_t lint_error_count(const std::vector<LintedFile>& files) {
  std::size_t errors = 0;
  for (const auto& file : files) {
    errors += errors_in(file.findings);
  }
  return errors;
}

std::string lint_report_text(const std::vector<LintedFile>& files) {
  std::string out;
  for (const auto& file : files) {
    for (const auto& finding : file.findings) {
      out += format_finding(file.name, finding) + "\n";
    }
    const std::size_t errors = errors_in(file.findings);
    out += file.name + ": " + count_of(errors, "error") + ", " +
           count_of(file.findings.size() - errors, "warning") + "\n";
  }
  return out;
}

nlohmann::json lint_report_json(const std::vector<LintedFile>& files) {
  nlohmann::json list = nlohmann::json::array();
  std::size_t total = 0;
  for (const auto& file : files) {
    nlohmann::json findings = nlohmann::json::array();
    for (const auto& f : file.findings) {
      findings.push_back({{"line", f.line},
                          {"column", f.column},
                          {"severity", severity_word(f.severity)},
                          {"rule", f.rule},
                          {"message", f.message}});
    }
    const std::size_t errors = errors_in(file.findings);
    list.push_back({{"file", file.name},
                    {"findings", findings},
                    {"errors", errors},
                    {"warnings", file.findings.size() - errors}});
    total += file.findings.size();
  }
  const std::size_t errors = lint_error_count(files);
  return {{"schema", formats::k_lint_schema},
          {"files", list},
          {"errors", errors},
          {"warnings", total - errors}};
}

nlohmann::json lint_report_sarif(const std::vector<LintedFile>& files,
                                 const std::string& tool_version) {
  nlohmann::json rules = nlohmann::json::array();
  std::map<std::string, std::size_t> index;
  for (const auto& rule : lint_rule_ids()) {
    index[rule.id] = rules.size();
    rules.push_back({{"id", rule.id}, {"shortDescription", {{"text", rule.description}}}});
  }
  nlohmann::json results = nlohmann::json::array();
  for (const auto& file : files) {
    for (const auto& f : file.findings) {
      nlohmann::json location = {
          {"physicalLocation",
           {{"artifactLocation", {{"uri", uri_of(file.name)}}},
            {"region", {{"startLine", f.line}, {"startColumn", f.column}}}}}};
      nlohmann::json result = {{"ruleId", f.rule},
                               {"level", severity_word(f.severity)},
                               {"message", {{"text", f.message}}},
                               {"locations", nlohmann::json::array({location})}};
      if (const auto it = index.find(f.rule); it != index.end()) {
        result["ruleIndex"] = it->second;
      }
      results.push_back(std::move(result));
    }
  }
  nlohmann::json run = nlohmann::json::object();
  run["tool"]["driver"] = {{"name", "envlock"}, {"version", tool_version}, {"rules", rules}};
  run["results"] = results;
  nlohmann::json log = nlohmann::json::object();
  log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
  log["version"] = "2.1.0";
  log["runs"] = nlohmann::json::array();
  log["runs"].push_back(std::move(run));
  return log;
}

} // namespace envlock::build
