// envlock handover [--lock ...] -o handover.md|.html|.json: the handover record
// (docs/manual/handover.md).
#include "handover/handover.hpp"
#include "cli/command.hpp"
#include "handover/render.hpp"
#include "util/fs.hpp"

#include <iostream>

namespace envlock::cli {

namespace {

struct HandoverOptions {
  handover::RecordPaths paths;
  std::string output;
};

Result<ExitCode> run_handover(const HandoverOptions& o) {
  ENVLOCK_TRY_ASSIGN(const handover::HandoverFormat format,
                     handover::handover_format_for(o.output));
  ENVLOCK_TRY_ASSIGN(const handover::Records records, handover::read_records(o.paths));
  const handover::Handover handover = handover::build_handover(records);
  ENVLOCK_TRY_ASSIGN(const std::string text, handover::render_handover(handover, records, format));
  ENVLOCK_TRY(util::write_file_atomic(o.output, text));
  std::size_t missing = 0;
  for (const auto& row : handover.rows) {
    for (const auto& item : row.items) {
      missing += item.value ? 0 : 1;
    }
  }
  std::cerr << "envlock: wrote " << o.output << " (" << missing << " items missing)\n";
  return ExitCode::ok;
}

const RegisterCommand k_register{{
    "handover",
    "Write the environment handover record (Markdown, HTML or JSON) from the records given",
    [](CLI::App& app) -> Runner {
      auto o = std::make_shared<HandoverOptions>();
      auto& p = o->paths;
      app.add_option("--lock", p.lock, "The lock (envlock.lock.json)")->check(CLI::ExistingFile);
      app.add_option("--provenance", p.provenance, "The provenance record")
          ->check(CLI::ExistingFile);
      app.add_option("--build-result", p.build_result, "build-result.json of envlock build")
          ->check(CLI::ExistingFile);
      app.add_option("--squashfs-result", p.squashfs_result,
                     "squashfs-result.json of envlock squashfs")
          ->check(CLI::ExistingFile);
      app.add_option("--reports", p.reports_dir, "A folder of verification reports (*.json)")
          ->check(CLI::ExistingDirectory);
      app.add_option("--node", p.node, "Host facts from envlock node --json")
          ->check(CLI::ExistingFile);
      app.add_option("--previous-lock", p.previous_lock,
                     "The lock of the previous environment (the way back)")
          ->check(CLI::ExistingFile);
      app.add_option("--rollback", p.rollback,
                     "The report of envlock rollback check --json (row 7)")
          ->check(CLI::ExistingFile);
      app.add_option("-o,--output", o->output, "handover.md, handover.html or handover.json")
          ->required();
      return [o] { return run_handover(*o); };
    },
}};

} // namespace

} // namespace envlock::cli
