#include "verify/gpu/figures.hpp"

#include "verify/gpu/known_answer.hpp"

#include <cmath>

namespace envlock::verify {

double gbps(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds / 1e9 : 0.0;
}

double allreduce_busbw(double algbw, int ranks) {
  if (ranks <= 1) {
    return 0.0;
  }
  return algbw * 2.0 * (ranks - 1) / ranks;
}

double gemm_tflops(std::uint64_t m, std::uint64_t n, std::uint64_t k, double seconds) {
  const double operations =
      2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
  return seconds > 0 ? operations / seconds / 1e12 : 0.0;
}

Mismatches known_answer_mismatches(const std::vector<std::uint32_t>& found) {
  Mismatches result;
  for (std::size_t i = 0; i < found.size(); ++i) {
    const std::uint32_t expected = known::known_answer(static_cast<std::uint32_t>(i));
    if (found[i] != expected) {
      if (result.count == 0) {
        result.first = i;
        result.first_found = found[i];
        result.first_expected = expected;
      }
      ++result.count;
    }
  }
  return result;
}

Mismatches allreduce_mismatches(const std::vector<float>& found, float expected) {
  Mismatches result;
  for (std::size_t i = 0; i < found.size(); ++i) {
    if (found[i] != expected) {
      if (result.count == 0) {
        result.first = i;
        result.first_found = known::float_bits(found[i]);
        result.first_expected = known::float_bits(expected);
      }
      ++result.count;
    }
  }
  return result;
}

bool gemm_entry_within_tolerance(double found, double reference, double abs_sum) {
  const double tolerance = std::ldexp(std::fabs(reference), -8) + std::ldexp(abs_sum, -14);
  return std::fabs(found - reference) <= tolerance;
}

} // namespace envlock::verify
