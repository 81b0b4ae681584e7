// `envlock fleet ...`: the subcommands that drive Slurm (docs/manual/fleet.md). fleet.cpp
// describes `fleet`; each other file of cli/fleet/ sets up one subcommand's options and returns
// its runner, in a namespace of its own named after the file.
#pragma once

#include "cli/commands.hpp"

namespace envlock::cli {

// `fleet verify`: envlock-verify on every node through one Slurm job, then the fleet report.
namespace fleet_verify_command {
Runner setup(CLI::App& fleet);
}
// `fleet distribute`: the .sqsh to every node's local storage (sbcast), checked by sha256.
namespace fleet_distribute_command {
Runner setup(CLI::App& fleet);
}
// `fleet drain-list`: scontrol lines draining failed nodes and resuming repaired ones.
namespace fleet_drain_command {
Runner setup(CLI::App& fleet);
}
// `fleet rollout`: verification batch after batch, resumable from a state file.
namespace fleet_rollout_command {
Runner setup(CLI::App& fleet);
}

} // namespace envlock::cli
