// envlock's subcommands. Each is one file of src/cli/ whose names live in a namespace of its own,
// named after the file (envlock::cli::build_command for build.cpp), so that the files compile
// together in unity batches; each file's spec() describes its command, and commands.cpp lists
// them all. A new command is a new file, its declaration here and its line in commands.cpp.
#pragma once

#include "cli/command.hpp"

#include <vector>

namespace envlock::cli {

// Every command of envlock, sorted by name (`envlock --help` lists them in this order).
std::vector<CommandSpec> commands();

// Each command's options, runner and subcommands (docs/manual/<command>.md).
namespace attest_command {
CommandSpec spec();
}
namespace build_command {
CommandSpec spec();
}
namespace chain_command {
CommandSpec spec();
}
namespace context_command {
CommandSpec spec();
}
namespace diff_command {
CommandSpec spec();
}
namespace fleet_command {
CommandSpec spec();
}
namespace handover_command {
CommandSpec spec();
}
namespace importer_command {
CommandSpec spec();
}
namespace keygen_command {
CommandSpec spec();
}
namespace lint_command {
CommandSpec spec();
}
namespace lock_command {
CommandSpec spec();
}
namespace node_command {
CommandSpec spec();
}
namespace provenance_command {
CommandSpec spec();
}
namespace render_command {
CommandSpec spec();
}
namespace resolve_command {
CommandSpec spec();
}
namespace rollback_command {
CommandSpec spec();
}
namespace sample_data_command {
CommandSpec spec();
}
namespace sbom_command {
CommandSpec spec();
}
namespace squashfs_command {
CommandSpec spec();
}
namespace verify_command {
CommandSpec spec();
}

} // namespace envlock::cli
