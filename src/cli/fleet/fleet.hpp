// `envlock fleet ...`: the subcommands that drive Slurm (docs/manual/fleet.md). fleet.cpp
// registers `fleet`; each other file of cli/fleet/ sets up one subcommand's options and returns
// its runner.
#pragma once

#include "cli/command.hpp"

namespace envlock::cli {

// `fleet verify`: envlock-verify on every node through one Slurm job, then the fleet report.
Runner add_fleet_verify(CLI::App& fleet);
// `fleet distribute`: the .sqsh to every node's local storage (sbcast), checked by sha256.
Runner add_fleet_distribute(CLI::App& fleet);
// `fleet drain-list`: scontrol lines draining failed nodes and resuming repaired ones.
Runner add_fleet_drain_list(CLI::App& fleet);
// `fleet rollout`: verification batch after batch, resumable from a state file.
Runner add_fleet_rollout(CLI::App& fleet);

} // namespace envlock::cli
