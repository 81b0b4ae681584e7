// Registers `envlock fleet` and runs whichever of its subcommands was given.
#include "cli/fleet.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace envlock::cli {

namespace {

const RegisterCommand k_register{{
    "fleet",
    "Verify, distribute to and roll out across the nodes of a Slurm cluster",
    [](CLI::App& app) -> Runner {
      app.require_subcommand(1);
      auto runners = std::make_shared<std::vector<std::pair<CLI::App*, Runner>>>();
      const std::vector<std::pair<std::string, std::string>> subs = {
          {"verify", "Run envlock-verify on every node through Slurm and write the fleet report"},
          {"distribute", "Copy a .sqsh to every node (sbcast) and check its sha256 there"},
          {"drain-list", "Print (or --apply) the scontrol lines for failed and repaired nodes"},
          {"rollout", "Verify an image batch after batch; resumable from a state file"},
      };
      for (const auto& [name, description] : subs) {
        CLI::App* sub = app.add_subcommand(name, description);
        Runner runner = name == "verify"       ? add_fleet_verify(*sub)
                        : name == "distribute" ? add_fleet_distribute(*sub)
                        : name == "drain-list" ? add_fleet_drain_list(*sub)
                                               : add_fleet_rollout(*sub);
        runners->emplace_back(sub, std::move(runner));
      }
      return [runners]() -> Result<ExitCode> {
        for (auto& [sub, runner] : *runners) {
          if (sub->parsed()) {
            return runner();
          }
        }
        return input_error("fleet: a subcommand is required");
      };
    },
}};

} // namespace

} // namespace envlock::cli
