// envlock importer get URI / envlock importer release: the Pyxis importer plugin
// (docs/manual/importer.md), the same commands as the lean `envlock-importer` executable that
// plugstack.conf names. Pyxis reads one line, the .sqsh's absolute path, from standard output;
// everything else goes to standard error, which Pyxis prints when the exit status is not 0.
#include "cli/commands.hpp"
#include "cmdline/help.hpp"
#include "importer/command.hpp"

#include <memory>

namespace envlock::cli::importer_command {

CommandSpec spec() {
  return {
      "importer",
      "The Pyxis importer: get a checked .sqsh for an image URI; release it",
      [](CLI::App& app) -> Runner {
        app.require_subcommand(1);
        auto uri = std::make_shared<std::string>();
        CLI::App* get = app.add_subcommand("get", "Print the path of the checked .sqsh of URI");
        get->add_option("uri", *uri,
                        "docker://[USER@][REGISTRY#]IMAGE[:TAG][@sha256:...] or a .sqsh path")
            ->required();
        cmdline::set_footer(*get, "envlock importer get docker://nvcr.io#nvidia/pytorch:26.06-py3",
                            "docs/manual/importer.md");
        CLI::App* release = app.add_subcommand("release", "End this job step's use of its images");
        cmdline::set_footer(*release, "envlock importer release", "docs/manual/importer.md");
        return [get, release, uri]() -> Result<ExitCode> {
          if (get->parsed()) {
            return importer::run_get(*uri);
          }
          if (release->parsed()) {
            return importer::run_release();
          }
          return input_error("importer: get or release is required");
        };
      },
  };
}

} // namespace envlock::cli::importer_command
