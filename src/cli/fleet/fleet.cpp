// `envlock fleet` and its subcommands (each in a file of cli/fleet/).
#include "cli/fleet/fleet.hpp"

namespace envlock::cli::fleet_command {

CommandSpec spec() {
  return {
      "fleet",
      "Verify, distribute to and roll out across the nodes of a Slurm cluster",
      nullptr,
      {
          {"verify", "Run envlock-verify on every node through Slurm and write the fleet report",
           fleet_verify_command::setup},
          {"distribute", "Copy a .sqsh to every node (sbcast) and check its sha256 there",
           fleet_distribute_command::setup},
          {"drain-list", "Print (or --apply) the scontrol lines for failed and repaired nodes",
           fleet_drain_command::setup},
          {"rollout", "Verify an image batch after batch; resumable from a state file",
           fleet_rollout_command::setup},
      },
  };
}

} // namespace envlock::cli::fleet_command
