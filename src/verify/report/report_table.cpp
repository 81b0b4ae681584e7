#include "verify/report/report.hpp"

#include <algorithm>
#include <string_view>

namespace envlock::verify {

namespace {

constexpr std::size_t k_max_cell = 48;

// One line, at most k_max_cell characters (UTF-8 aware enough: cuts on a byte boundary that is
// not a continuation byte).
std::string cell(std::string_view text) {
  std::string out(text);
  std::replace(out.begin(), out.end(), '\n', ' ');
  if (out.size() > k_max_cell) {
    std::size_t cut = k_max_cell - 3;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0U) == 0x80U) {
      --cut;
    }
    out = out.substr(0, cut) + "...";
  }
  return out;
}

std::string pad(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

const char* label(Outcome outcome) {
  switch (outcome) {
  case Outcome::pass:
    return "PASS";
  case Outcome::fail:
    return "FAIL";
  case Outcome::skip:
    return "SKIP";
  }
  return "SKIP";
}

const char* colour_code(Outcome outcome) {
  switch (outcome) {
  case Outcome::pass:
    return "\033[32m";
  case Outcome::fail:
    return "\033[31m";
  case Outcome::skip:
    return "\033[33m";
  }
  return "";
}

} // namespace

std::string report_to_table(const Report& report, Colour colour) {
  std::size_t id_width = 2;
  std::size_t expected_width = 8;
  std::size_t found_width = 5;
  for (const auto& check : report.checks) {
    id_width = std::max(id_width, cell(check.id).size());
    expected_width = std::max(expected_width, cell(check.expected).size());
    found_width = std::max(found_width, cell(check.found).size());
  }
  std::string out;
  for (const auto& note : report.notes) {
    out += note + "\n";
  }
  out += pad("", 6) + pad("check", id_width) + "  " + pad("expected", expected_width) + "  " +
         pad("found", found_width) + "  reason\n";
  for (const auto& check : report.checks) {
    std::string outcome = label(check.outcome);
    if (colour == Colour::on) {
      outcome = colour_code(check.outcome) + outcome + "\033[0m";
    }
    std::string line = outcome + "  " + pad(cell(check.id), id_width) + "  " +
                       pad(cell(check.expected), expected_width) + "  " +
                       pad(cell(check.found), found_width) + "  " + check.reason;
    while (!line.empty() && line.back() == ' ') {
      line.pop_back();
    }
    std::replace(line.begin(), line.end(), '\n', ' ');
    out += line + "\n";
  }
  const Summary summary = summarize(report.checks);
  out += std::to_string(summary.passed) + " passed, " + std::to_string(summary.failed) +
         " failed, " + std::to_string(summary.skipped) + " skipped\n";
  return out;
}

} // namespace envlock::verify
