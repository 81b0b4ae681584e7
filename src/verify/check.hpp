// One verification check's outcome, as every probe returns it and every report prints it. The
// types are the report's (formats/report.hpp); the helpers below make them.
#pragma once

#include "formats/report.hpp"

#include <string>

namespace envlock::verify {

using formats::CheckResult;
using formats::Figure;
using formats::Outcome;
using formats::to_string;

// A check that passed with what was expected and found.
CheckResult passed(std::string id, std::string title, std::string expected, std::string found);
// A check that failed, with the reason.
CheckResult failed(std::string id, std::string title, std::string expected, std::string found,
                   std::string reason);
// A check that was skipped, with the reason.
CheckResult skipped(std::string id, std::string title, std::string expected, std::string reason);

} // namespace envlock::verify
