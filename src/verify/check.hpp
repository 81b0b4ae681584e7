// One verification check's outcome, as every probe returns it and every report prints it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace envlock::verify {

enum class Outcome { pass, fail, skip };

// "pass" / "fail" / "skip"
const char* to_string(Outcome outcome);

// A measured number (bandwidth, TFLOP/s, busbw, wall time), reported as is, never judged here
// unless the lock sets a threshold.
struct Figure {
  std::string name; // e.g. "busbw_1GiB"
  double value = 0;
  std::string unit; // e.g. "GB/s"
};

struct CheckResult {
  std::string id;    // stable key, e.g. "cuda.driver", "nccl.version", "gpu.0.smoke"
  std::string group; // the --check group that runs it: "cuda", "smoke", "allreduce", ...
  std::string title; // human words for the table
  Outcome outcome = Outcome::skip;
  std::string expected; // what the lock says ("" when the lock says nothing)
  std::string found;    // what was found on the node
  std::string reason;   // why it failed or was skipped; empty on a plain pass
  std::vector<Figure> figures;
  nlohmann::json details = nlohmann::json::object(); // check-specific extras (paths, lists)
  double seconds = 0;                                // wall time of the check
};

// A check that passed with what was expected and found.
CheckResult passed(std::string id, std::string title, std::string expected, std::string found);
// A check that failed, with the reason.
CheckResult failed(std::string id, std::string title, std::string expected, std::string found,
                   std::string reason);
// A check that was skipped, with the reason.
CheckResult skipped(std::string id, std::string title, std::string expected, std::string reason);

} // namespace envlock::verify
