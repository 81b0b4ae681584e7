#include "verify/resume/step_log.hpp"

#include "util/fs.hpp"
#include "util/strings.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <regex>

namespace envlock::verify {

namespace {

// A float from C99 hex ("0x1.8p+3"), decimal text or a JSON number.
std::optional<double> number_of(const nlohmann::json& value) {
  if (value.is_number()) {
    return value.get<double>();
  }
  if (!value.is_string()) {
    return std::nullopt;
  }
  const std::string text = value.get<std::string>();
  char* end = nullptr;
  errno = 0;
  const double parsed = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || errno == ERANGE) {
    return std::nullopt;
  }
  return parsed;
}

std::optional<double> number_of(const std::string& text) {
  return number_of(nlohmann::json(text));
}

constexpr const char* k_number_group =
    R"(([-+]?(?:0[xX][0-9a-fA-F.]+[pP][-+]?[0-9]+|[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?|nan|inf)))";

} // namespace

double decimal_resolution(std::string_view text) {
  if (text.starts_with('-') || text.starts_with('+')) {
    text.remove_prefix(1);
  }
  if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    return 0;
  }
  const auto e = text.find_first_of("eE");
  const std::string_view mantissa = text.substr(0, e);
  if (mantissa.empty() || mantissa.find_first_not_of("0123456789.") != std::string_view::npos) {
    return 0;
  }
  int exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view digits = text.substr(e + 1);
    if (digits.starts_with('+')) {
      digits.remove_prefix(1);
    }
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), exponent);
    if (ec != std::errc() || end != digits.data() + digits.size()) {
      return 0;
    }
  }
  const auto dot = mantissa.find('.');
  const int decimals =
      dot == std::string_view::npos ? 0 : static_cast<int>(mantissa.size() - dot - 1);
  return std::pow(10.0, exponent - decimals);
}

const char* const k_megatron_loss_pattern =
    R"(iteration\s+{step}/.*\| learning rate: {lr} \|.*\| lm loss: {loss} \|)";

Result<RunLog> parse_run_log(std::string_view text, std::string_view origin) {
  RunLog log;
  std::size_t line_number = 0;
  for (const auto& line : util::split(text, '\n')) {
    ++line_number;
    if (util::trim(line).empty()) {
      continue;
    }
    const std::string where = std::string(origin) + ":" + std::to_string(line_number) + ": ";
    const nlohmann::json record = nlohmann::json::parse(line, nullptr, false);
    if (record.is_discarded() || !record.is_object()) {
      return input_error(where + "not a JSON object");
    }
    const std::string kind = record.value("kind", "");
    if (kind == "params") {
      log.params_sha256 = record.value("sha256", "");
      log.params_count = record.value("count", std::int64_t{0});
      continue;
    }
    if (kind != "step") {
      continue;
    }
    if (!record.contains("step") || !record["step"].is_number_integer()) {
      return input_error(where + "step record without a step number");
    }
    const auto loss = record.contains("loss") ? number_of(record["loss"]) : std::nullopt;
    if (!loss) {
      return input_error(where + "step record without a loss");
    }
    StepRecord step{*loss, record.contains("lr") ? number_of(record["lr"]) : std::nullopt};
    log.steps[record["step"].get<std::int64_t>()] = step;
  }
  return log;
}

Result<RunLog> read_run_log(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const std::string text, util::read_file(path));
  return parse_run_log(text, path.filename().string());
}

Result<LogPattern> parse_log_pattern(std::string_view text) {
  LogPattern pattern;
  std::string regex;
  int group = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(' && (i == 0 || text[i - 1] != '\\') && text.substr(i + 1, 1) != "?") {
      ++group;
    }
    const std::string_view rest = text.substr(i);
    int* slot = rest.starts_with("{step}")   ? &pattern.step_group
                : rest.starts_with("{loss}") ? &pattern.loss_group
                : rest.starts_with("{lr}")   ? &pattern.lr_group
                                             : nullptr;
    if (slot == nullptr) {
      regex.push_back(text[i]);
      continue;
    }
    *slot = ++group;
    regex += slot == &pattern.step_group ? "([0-9]+)" : k_number_group;
    i += rest.find('}');
  }
  if (pattern.step_group == 0 || pattern.loss_group == 0) {
    return input_error("--loss-pattern: needs {step} and {loss}");
  }
  try {
    const std::regex compiled(regex);
  } catch (const std::regex_error& e) {
    return input_error(std::string("--loss-pattern: not a regular expression: ") + e.what());
  }
  pattern.regex = regex;
  return pattern;
}

Result<RunLog> parse_text_log(std::string_view text, const LogPattern& pattern) {
  const std::regex regex(pattern.regex);
  RunLog log;
  for (const auto& line : util::split(text, '\n')) {
    std::smatch match;
    if (!std::regex_search(line, match, regex)) {
      continue;
    }
    const auto loss = number_of(match[pattern.loss_group].str());
    if (!loss) {
      continue;
    }
    StepRecord step{*loss, std::nullopt, decimal_resolution(match[pattern.loss_group].str())};
    if (pattern.lr_group != 0) {
      step.lr = number_of(match[pattern.lr_group].str());
    }
    const std::string number = match[pattern.step_group].str();
    std::int64_t at = 0;
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), at);
    if (ec != std::errc() || end != number.data() + number.size()) {
      continue; // a step number beyond 64 bits is no step of a planned run
    }
    log.steps[at] = step;
  }
  return log;
}

} // namespace envlock::verify
