// One verification run: read the lock, run the selected check groups in a fixed order (GPU
// inventory, CUDA, NCCL, PyTorch, packages, Megatron-LM, image labels, then the GPU workloads) and
// gather the results into a report.
#pragma once

#include "util/result.hpp"
#include "verify/options.hpp"
#include "verify/report/report.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace envlock::verify {

// Parses --devices ("0,1"); an input error names a bad entry.
Result<std::vector<int>> parse_devices(std::string_view text);

// Checks the options (known --check groups, --devices, --root a folder), reads the lock and runs
// the checks. Fails (exit 2) on bad options or an unreadable lock; failed checks are part of the
// report, not errors.
Result<Report> run_verification(const VerifyOptions& options);

} // namespace envlock::verify
