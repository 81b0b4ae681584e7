// Which nodes a fleet job can wait for. Before submitting, `fleet verify` reads every node's
// state (sinfo -N) and leaves out the nodes Slurm will not give a new job soon: drained or
// draining, down, failing, not responding ('*'), in maintenance, reserved (unless the job runs in
// a reservation), powered down or unknown. They are reported as not verified, with Slurm's state
// and reason, instead of holding the job pending for ever.
#pragma once

#include "fleet/slurm.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace envlock::fleet {

// Why a node in `state` is not waited for ("drained (bad fan)", "down* (Not responding)"), or
// nothing when a job may run there: idle, mixed, allocated or completing, with no flag suffix.
// `in_reservation`: the job names a reservation, so "reserved" nodes are usable.
std::optional<std::string> unavailable_because(const NodeState& state, bool in_reservation);

struct NodeSplit {
  std::vector<std::string> usable;                 // in the order given
  std::map<std::string, NodeState> not_waited_for; // node -> its state
};

// Splits `nodes` by their states; a node sinfo does not list is usable (sbatch will say why not).
NodeSplit split_by_state(const std::vector<std::string>& nodes,
                         const std::map<std::string, NodeState>& states, bool in_reservation);

} // namespace envlock::fleet
