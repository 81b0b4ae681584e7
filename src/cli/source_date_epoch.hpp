// SOURCE_DATE_EPOCH for `squashfs`, `context` and `build`: --source-date-epoch wins, then the
// variable SOURCE_DATE_EPOCH of the environment (the reproducible-builds convention, which Enroot
// follows), then the lock's enroot.source_date_epoch.
#pragma once

#include "util/result.hpp"

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace envlock::cli {

// The largest time a squashfs inode holds (an unsigned 32-bit number of seconds).
inline constexpr std::int64_t k_max_source_date_epoch = 4294967295;

// Where the epoch comes from, when not from the lock.
enum class EpochOrigin { flag, environment };

struct EpochOverride {
  std::int64_t value = 0;
  EpochOrigin origin = EpochOrigin::flag;
};

// Adds --source-date-epoch SECONDS to `app`, parsed into `flag` (which must outlive the parse).
void add_source_date_epoch_option(CLI::App& app, std::optional<std::int64_t>& flag,
                                  const std::string& help);

// The flag's value, else SOURCE_DATE_EPOCH from the environment (unset or empty: none), else
// nothing. Fails (exit 2) with "SOURCE_DATE_EPOCH='x' in the environment: not a number of seconds
// from 0 to 4294967295" (or the same for --source-date-epoch) when a value is out of that range.
Result<std::optional<EpochOverride>>
source_date_epoch_override(const std::optional<std::int64_t>& flag);

// The line for standard error when the epoch comes from the environment:
// "envlock: SOURCE_DATE_EPOCH=N from the environment (the lock has M)"; empty otherwise.
std::string epoch_note(const std::optional<EpochOverride>& epoch,
                       const std::optional<std::int64_t>& lock_value);

} // namespace envlock::cli
