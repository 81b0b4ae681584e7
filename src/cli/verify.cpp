// `envlock verify`: the node checks of envlock-verify, from the main tool.
#include "cli/commands.hpp"
#include "cmdline/help.hpp"
#include "node/gpu_sampler.hpp"
#include "verify/verify_cli.hpp"

#include <memory>

namespace envlock::cli::verify_command {

CommandSpec spec() {
  return {
      "verify",
      "Check this node or container (or an unpacked image, --root) against a lock",
      [](CLI::App& app) -> Runner {
        auto options = std::make_shared<verify::VerifyOptions>();
        options->open_gpu_sampler = [] { return node::open_nvml_sampler(); };
        verify::add_verify_options(app, *options);
        cmdline::set_footer(app, "envlock verify --root rootfs --check packages",
                            "docs/manual/verify.md");
        return [options]() -> Result<ExitCode> { return verify::verify(*options); };
      },
  };
}

} // namespace envlock::cli::verify_command
