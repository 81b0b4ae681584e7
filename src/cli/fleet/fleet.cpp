// Registers `envlock fleet` and its subcommands (each in a file of cli/fleet/).
#include "cli/fleet/fleet.hpp"

namespace envlock::cli {

namespace {

const RegisterCommand k_register{{
    "fleet",
    "Verify, distribute to and roll out across the nodes of a Slurm cluster",
    nullptr,
    {
        {"verify", "Run envlock-verify on every node through Slurm and write the fleet report",
         add_fleet_verify},
        {"distribute", "Copy a .sqsh to every node (sbcast) and check its sha256 there",
         add_fleet_distribute},
        {"drain-list", "Print (or --apply) the scontrol lines for failed and repaired nodes",
         add_fleet_drain_list},
        {"rollout", "Verify an image batch after batch; resumable from a state file",
         add_fleet_rollout},
    },
}};

} // namespace

} // namespace envlock::cli
