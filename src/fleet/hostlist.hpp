// Slurm host lists ("node[01-04,7],gpu-a"): expanding them into node names, and the order envlock
// prints nodes in (natural order: node2 before node10).
#pragma once

#include "util/result.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace envlock::fleet {

// The node names of a host list, in natural order, without duplicates. Ranges keep their
// zero padding ("n[08-10]" gives n08 n09 n10). Fails with an input error naming the list when a
// bracket is unbalanced or a range is not "A-B" with A <= B.
Result<std::vector<std::string>> expand_hostlist(std::string_view list);

// Natural order: runs of digits compare as numbers, the rest as text.
bool node_less(const std::string& a, const std::string& b);

// Sorts names in natural order and removes duplicates.
void sort_nodes(std::vector<std::string>& nodes);

} // namespace envlock::fleet
