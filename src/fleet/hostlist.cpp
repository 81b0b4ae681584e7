#include "fleet/hostlist.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <cctype>
#include <cstddef>

namespace envlock::fleet {

namespace {

// Slurm's own limit on a cluster's nodes is below this; a longer list is a typo ("n[1-99999999]").
constexpr std::size_t k_max_names = 65536;

bool is_digit(char c) {
  return std::isdigit(static_cast<unsigned char>(c)) != 0;
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), is_digit);
}

// Splits on commas that are outside brackets; fails on unbalanced brackets.
Result<std::vector<std::string>> split_top_level(std::string_view list) {
  std::vector<std::string> parts;
  std::string current;
  int depth = 0;
  for (const char c : list) {
    if (c == '[') {
      ++depth;
    } else if (c == ']') {
      --depth;
    }
    if (depth < 0 || depth > 1) {
      return input_error("host list '" + std::string(list) + "': unbalanced '[' and ']'");
    }
    if (c == ',' && depth == 0) {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (depth != 0) {
    return input_error("host list '" + std::string(list) + "': unbalanced '[' and ']'");
  }
  parts.push_back(current);
  return parts;
}

// "prefix[1-3,7]suffix" into its names, appended to `out` (at most k_max_names in all).
Status expand_one(const std::string& item, std::string_view list, std::vector<std::string>& out) {
  const auto open = item.find('[');
  if (open == std::string::npos) {
    out.push_back(item);
    return {};
  }
  const auto close = item.find(']', open);
  const std::string prefix = item.substr(0, open);
  const std::string suffix = item.substr(close + 1);
  for (const auto& range : util::split(item.substr(open + 1, close - open - 1), ',')) {
    const auto dash = range.find('-');
    const std::string low = range.substr(0, dash);
    const std::string high = dash == std::string::npos ? low : range.substr(dash + 1);
    if (!all_digits(low) || !all_digits(high) || low.size() > 9 || high.size() > 9 ||
        std::stol(low) > std::stol(high)) {
      return input_error("host list '" + std::string(list) + "': bad range '" + range + "'");
    }
    if (out.size() + static_cast<std::size_t>(std::stol(high) - std::stol(low)) >= k_max_names) {
      return input_error("host list '" + std::string(list) + "': more than " +
                         std::to_string(k_max_names) + " names");
    }
    for (long i = std::stol(low); i <= std::stol(high); ++i) {
      std::string number = std::to_string(i);
      if (number.size() < low.size()) {
        number.insert(0, low.size() - number.size(), '0');
      }
      out.push_back(prefix + number + suffix);
    }
  }
  return {};
}

} // namespace

bool node_less(const std::string& a, const std::string& b) {
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      std::size_t ei = i;
      std::size_t ej = j;
      while (ei < a.size() && is_digit(a[ei])) {
        ++ei;
      }
      while (ej < b.size() && is_digit(b[ej])) {
        ++ej;
      }
      std::string_view na = std::string_view(a).substr(i, ei - i);
      std::string_view nb = std::string_view(b).substr(j, ej - j);
      na.remove_prefix(std::min(na.find_first_not_of('0'), na.size()));
      nb.remove_prefix(std::min(nb.find_first_not_of('0'), nb.size()));
      if (na.size() != nb.size()) {
        return na.size() < nb.size();
      }
      if (na != nb) {
        return na < nb;
      }
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) {
        return a[i] < b[j];
      }
      ++i;
      ++j;
    }
  }
  if (a.size() - i != b.size() - j) {
    return a.size() - i < b.size() - j;
  }
  return a < b;
}

void sort_nodes(std::vector<std::string>& nodes) {
  // Each range expands in order already, so the list is a few sorted runs: merging them pairwise
  // costs n log(runs) comparisons, n for one range, where sorting would cost n log n.
  std::vector<std::size_t> bounds{0};
  for (std::size_t i = 1; i < nodes.size(); ++i) {
    if (node_less(nodes[i], nodes[i - 1])) {
      bounds.push_back(i);
    }
  }
  bounds.push_back(nodes.size());
  const auto at = [&](std::size_t i) { return nodes.begin() + static_cast<std::ptrdiff_t>(i); };
  while (bounds.size() > 2) {
    std::vector<std::size_t> merged{0};
    for (std::size_t k = 0; k + 2 < bounds.size(); k += 2) {
      std::inplace_merge(at(bounds[k]), at(bounds[k + 1]), at(bounds[k + 2]), node_less);
      merged.push_back(bounds[k + 2]);
    }
    if (merged.back() != bounds.back()) {
      merged.push_back(bounds.back()); // an odd run out: carried to the next round
    }
    bounds = std::move(merged);
  }
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
}

Result<std::vector<std::string>> expand_hostlist(std::string_view list) {
  ENVLOCK_TRY_ASSIGN(const auto items, split_top_level(util::trim(list)));
  std::vector<std::string> nodes;
  for (const auto& item : items) {
    if (item.empty()) {
      continue;
    }
    ENVLOCK_TRY(expand_one(item, list, nodes));
  }
  if (nodes.empty()) {
    return input_error("host list '" + std::string(list) + "': no node names");
  }
  sort_nodes(nodes);
  return nodes;
}

} // namespace envlock::fleet
