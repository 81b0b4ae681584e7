// A number as the manifest declared it: its value, and whether it was written as an integer, so
// that the lock keeps writing 0 where the manifest wrote 0.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

namespace envlock::lock {

struct DeclaredNumber {
  double value = 0;
  bool integer = false;
  bool operator==(const DeclaredNumber&) const = default;
};

// The number in the form it was declared: 300 or 300.5.
inline nlohmann::json declared_number_json(const DeclaredNumber& number) {
  return number.integer ? nlohmann::json(static_cast<std::int64_t>(number.value))
                        : nlohmann::json(number.value);
}

} // namespace envlock::lock
