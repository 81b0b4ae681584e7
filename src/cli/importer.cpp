// envlock importer get|release|check|fill|scan|log: the Pyxis importer plugin and its helpers
// (docs/manual/importer.md), the same commands as the lean `envlock-importer` executable that
// plugstack.conf names. Pyxis reads one line, the .sqsh's absolute path, from standard output;
// everything else goes to standard error, which Pyxis prints when the exit status is not 0.
#include "cli/commands.hpp"
#include "importer/command.hpp"

namespace envlock::cli::importer_command {

CommandSpec spec() {
  return {
      "importer",
      "The Pyxis importer: get a checked .sqsh for an image URI; release it",
      [](CLI::App& app) -> Runner {
        return importer::add_importer_commands(app, "envlock importer");
      },
  };
}

} // namespace envlock::cli::importer_command
