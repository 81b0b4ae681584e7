#include "fleet/rollout_plan.hpp"

#include "fleet/hostlist.hpp"
#include "util/strings.hpp"

#include <algorithm>

namespace envlock::fleet {

Result<std::vector<std::size_t>> parse_batch_sizes(const std::string& text) {
  std::vector<std::size_t> sizes;
  for (const auto& part : util::split(text, ',')) {
    const std::string field{util::trim(part)};
    if (field.empty() || field.size() > 6 ||
        !std::all_of(field.begin(), field.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
        std::stoul(field) == 0) {
      return input_error("--batches: expected positive numbers separated by commas, e.g. "
                         "1,8,64: '" +
                         text + "'");
    }
    sizes.push_back(std::stoul(field));
  }
  return sizes;
}

std::vector<std::vector<std::string>> plan_batches(std::vector<std::string> nodes,
                                                   const std::string& reference,
                                                   const std::vector<std::size_t>& sizes) {
  sort_nodes(nodes);
  const auto ref = std::find(nodes.begin(), nodes.end(), reference);
  if (ref != nodes.end()) {
    std::rotate(nodes.begin(), ref, ref + 1);
  }
  std::vector<std::vector<std::string>> batches;
  std::size_t next = 0;
  for (std::size_t i = 0; next < nodes.size() && !sizes.empty(); ++i) {
    const std::size_t size = std::min(sizes[std::min(i, sizes.size() - 1)], nodes.size() - next);
    batches.emplace_back(nodes.begin() + static_cast<std::ptrdiff_t>(next),
                         nodes.begin() + static_cast<std::ptrdiff_t>(next + size));
    next += size;
  }
  return batches;
}

} // namespace envlock::fleet
