#include "verify/check.hpp"

namespace envlock::verify {

CheckResult passed(std::string id, std::string title, std::string expected, std::string found) {
  CheckResult result;
  result.id = std::move(id);
  result.title = std::move(title);
  result.outcome = Outcome::pass;
  result.expected = std::move(expected);
  result.found = std::move(found);
  return result;
}

CheckResult failed(std::string id, std::string title, std::string expected, std::string found,
                   std::string reason) {
  CheckResult result =
      passed(std::move(id), std::move(title), std::move(expected), std::move(found));
  result.outcome = Outcome::fail;
  result.reason = std::move(reason);
  return result;
}

CheckResult skipped(std::string id, std::string title, std::string expected, std::string reason) {
  CheckResult result = passed(std::move(id), std::move(title), std::move(expected), "");
  result.outcome = Outcome::skip;
  result.reason = std::move(reason);
  return result;
}

} // namespace envlock::verify
