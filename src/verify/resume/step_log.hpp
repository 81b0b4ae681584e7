// The per-step records of one training run of the resume check: the bundled trainer's JSON lines
// ({"kind": "step", "step": K, "loss": "0x1.2p+3", "lr": "0x1.0p-10"}, floats as C99 hex or plain
// numbers), or the lines of a user's training log matched by a pattern (--train-cmd).
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace envlock::verify {

struct StepRecord {
  double loss = 0;
  std::optional<double> lr; // absent when a log pattern captures no learning rate
  // One unit in the last printed digit of the loss ("6.422944E+00": 1e-6); 0 when exact (hex,
  // or the bundled trainer's records).
  double loss_resolution = 0;
};

// How a training log reports its loss. `megatron`: a process's first logged iteration shows its
// own loss, its second the mean of its first two (Megatron-LM's training_log() does not reset its
// sums after a process's first iteration, and logs every --log-interval); `plain`: every line is
// that step's loss.
enum class LogConvention { plain, megatron };

struct RunLog {
  std::map<std::int64_t, StepRecord> steps; // by step number, 1-based
  LogConvention convention = LogConvention::plain;
  std::string params_sha256; // of the final parameter dump; empty if none
  std::int64_t params_count = 0;
};

// Parses JSON lines; records of other kinds are ignored. An input error names the origin and
// line: "first.jsonl:7: step record without a loss".
Result<RunLog> parse_run_log(std::string_view text, std::string_view origin);

// Reads a file of JSON lines.
Result<RunLog> read_run_log(const std::filesystem::path& path);

// The default --loss-pattern, for Megatron-LM's training log lines such as
// " iteration       51/     100 | ... | learning rate: 1.000000E-04 | ... | lm loss: 7.2E+00 |".
extern const char* const k_megatron_loss_pattern;

// A --loss-pattern made ready: an ECMAScript regular expression in which `{step}`, `{loss}` and
// (optionally) `{lr}` stand for the numbers to read.
struct LogPattern {
  std::string regex; // with the placeholders replaced by capture groups
  int step_group = 0;
  int loss_group = 0;
  int lr_group = 0; // 0: the pattern reads no learning rate
};

// Replaces the placeholders. Input errors: "--loss-pattern: needs {step} and {loss}",
// "--loss-pattern: not a regular expression: WHY".
Result<LogPattern> parse_log_pattern(std::string_view text);

// One unit in the last digit of a decimal number's text: "6.422944E+00" -> 1e-6, "7.25" -> 0.01,
// "12" -> 1; 0 for a hex float or text that is no decimal number.
double decimal_resolution(std::string_view text);

// The records of the lines of `text` that the pattern matches (searched, not anchored); a later
// line for the same step replaces an earlier one (a restarted run logs a step again).
Result<RunLog> parse_text_log(std::string_view text, const LogPattern& pattern);

} // namespace envlock::verify
