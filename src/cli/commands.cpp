// The one list of envlock's commands (cli/commands.hpp), one line per command.
#include "cli/commands.hpp"

#include <algorithm>

namespace envlock::cli {

std::vector<CommandSpec> commands() {
  std::vector<CommandSpec> out;
  out.push_back(attest_command::spec());
  out.push_back(build_command::spec());
  out.push_back(chain_command::spec());
  out.push_back(context_command::spec());
  out.push_back(diff_command::spec());
  out.push_back(fleet_command::spec());
  out.push_back(handover_command::spec());
  out.push_back(importer_command::spec());
  out.push_back(keygen_command::spec());
  out.push_back(lint_command::spec());
  out.push_back(lock_command::spec());
  out.push_back(node_command::spec());
  out.push_back(provenance_command::spec());
  out.push_back(render_command::spec());
  out.push_back(resolve_command::spec());
  out.push_back(rollback_command::spec());
  out.push_back(sample_data_command::spec());
  out.push_back(sbom_command::spec());
  out.push_back(squashfs_command::spec());
  out.push_back(verify_command::spec());
  std::sort(out.begin(), out.end(),
            [](const CommandSpec& a, const CommandSpec& b) { return a.name < b.name; });
  return out;
}

} // namespace envlock::cli
