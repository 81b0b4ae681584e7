#include "verify/check.hpp"

namespace envlock::verify {

const char* to_string(Outcome outcome) {
  switch (outcome) {
  case Outcome::pass:
    return "pass";
  case Outcome::fail:
    return "fail";
  case Outcome::skip:
    return "skip";
  }
  return "skip";
}

} // namespace envlock::verify
