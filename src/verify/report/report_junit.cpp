#include "util/fs.hpp"
#include "verify/report/report.hpp"

#include <string_view>

namespace envlock::verify {

namespace {

// Escapes text for an XML attribute or element; control characters other than tab and newline
// are not allowed in XML 1.0 and become '?'.
std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\n':
      out += "&#10;";
      break;
    default:
      out += (static_cast<unsigned char>(c) < 0x20 && c != '\t') ? '?' : c;
    }
  }
  return out;
}

std::string group_of(const std::string& id) {
  return id.substr(0, id.find('.'));
}

} // namespace

std::string report_to_junit(const Report& report) {
  const Summary summary = summarize(report.checks);
  const std::string counts = " tests=\"" + std::to_string(report.checks.size()) + "\" failures=\"" +
                             std::to_string(summary.failed) + "\" errors=\"0\" skipped=\"" +
                             std::to_string(summary.skipped) + "\"";
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<testsuites name=\"envlock-verify\"" + counts + ">\n";
  out += "  <testsuite name=\"envlock-verify\"" + counts + ">\n";
  out += "    <properties>\n";
  const std::pair<const char*, std::string> properties[] = {
      {"lock_sha256", report.lock_sha256},
      {"image_digest", report.image_digest.value_or("")},
      {"sqsh_sha256", report.sqsh_sha256.value_or("")}};
  for (const auto& [name, value] : properties) {
    out += "      <property name=\"" + std::string(name) + "\" value=\"" + xml_escape(value) +
           "\"/>\n";
  }
  out += "    </properties>\n";
  for (const auto& check : report.checks) {
    out += "    <testcase classname=\"envlock." + xml_escape(group_of(check.id)) + "\" name=\"" +
           xml_escape(check.id) + "\">\n";
    const std::string values =
        "expected: " + xml_escape(check.expected) + "&#10;found: " + xml_escape(check.found);
    if (check.outcome == Outcome::fail) {
      out +=
          "      <failure message=\"" + xml_escape(check.reason) + "\">" + values + "</failure>\n";
    } else if (check.outcome == Outcome::skip) {
      out += "      <skipped message=\"" + xml_escape(check.reason) + "\"/>\n";
    }
    out += "      <system-out>" + xml_escape(check.title) + "&#10;" + values + "</system-out>\n";
    out += "    </testcase>\n";
  }
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

Status write_junit_report(const std::filesystem::path& path, const Report& report) {
  return util::write_file_atomic(path, report_to_junit(report));
}

} // namespace envlock::verify
