#include "fleet/node_availability.hpp"

namespace envlock::fleet {

namespace {

// sinfo's flag suffixes: * not responding, ~ powered off, # powering up, ! pending power down,
// % powering down, $ maintenance reservation, @ pending reboot, ^ reboot issued, - planned.
constexpr std::string_view k_flags = "*~#!%$@^-";

std::string words(const NodeState& state) {
  return state.reason.empty() ? state.state : state.state + " (" + state.reason + ")";
}

} // namespace

std::optional<std::string> unavailable_because(const NodeState& state, bool in_reservation) {
  std::string base = state.state;
  std::string flags;
  while (!base.empty() && k_flags.find(base.back()) != std::string_view::npos) {
    flags.insert(flags.begin(), base.back());
    base.pop_back();
  }
  const bool usable_base = base == "idle" || base == "mixed" || base == "allocated" ||
                           base == "completing" || (in_reservation && base == "reserved");
  if (usable_base && (flags.empty() || flags == "-")) {
    return std::nullopt;
  }
  if (flags.find('*') != std::string::npos && state.reason.empty()) {
    return state.state + " (not responding)";
  }
  return words(state);
}

NodeSplit split_by_state(const std::vector<std::string>& nodes,
                         const std::map<std::string, NodeState>& states, bool in_reservation) {
  NodeSplit split;
  for (const auto& node : nodes) {
    const auto it = states.find(node);
    if (it != states.end() && unavailable_because(it->second, in_reservation)) {
      split.not_waited_for[node] = it->second;
    } else {
      split.usable.push_back(node);
    }
  }
  return split;
}

} // namespace envlock::fleet
