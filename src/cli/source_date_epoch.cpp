#include "cli/source_date_epoch.hpp"

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace envlock::cli {

namespace {

Error out_of_range(const std::string& what) {
  return input_error(what + ": not a number of seconds from 0 to " +
                     std::to_string(k_max_source_date_epoch));
}

// Decimal digits only, at most k_max_source_date_epoch; no sign, blank or fraction.
std::optional<std::int64_t> parse_epoch(std::string_view text) {
  if (text.empty() || text.size() > 10 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  std::int64_t value = 0;
  for (const char c : text) {
    value = value * 10 + (c - '0');
  }
  return value <= k_max_source_date_epoch ? std::optional<std::int64_t>(value) : std::nullopt;
}

} // namespace

void add_source_date_epoch_option(CLI::App& app, std::optional<std::int64_t>& flag,
                                  const std::string& help) {
  app.add_option("--source-date-epoch", flag, help)->type_name("SECONDS");
}

Result<std::optional<EpochOverride>>
source_date_epoch_override(const std::optional<std::int64_t>& flag) {
  if (flag) {
    if (*flag < 0 || *flag > k_max_source_date_epoch) {
      return out_of_range("--source-date-epoch " + std::to_string(*flag));
    }
    return std::optional<EpochOverride>(EpochOverride{*flag, EpochOrigin::flag});
  }
  // NOLINTNEXTLINE(concurrency-mt-unsafe): read once, before any thread starts
  const char* text = std::getenv("SOURCE_DATE_EPOCH");
  if (text == nullptr || *text == '\0') {
    return std::optional<EpochOverride>();
  }
  const auto value = parse_epoch(text);
  if (!value) {
    return out_of_range("SOURCE_DATE_EPOCH='" + std::string(text) + "' in the environment");
  }
  return std::optional<EpochOverride>(EpochOverride{*value, EpochOrigin::environment});
}

std::string epoch_note(const std::optional<EpochOverride>& epoch,
                       const std::optional<std::int64_t>& lock_value) {
  if (!epoch || epoch->origin != EpochOrigin::environment) {
    return "";
  }
  std::string note =
      "envlock: SOURCE_DATE_EPOCH=" + std::to_string(epoch->value) + " from the environment";
  if (lock_value) {
    note += " (the lock has " + std::to_string(*lock_value) + ")";
  }
  return note;
}

} // namespace envlock::cli
