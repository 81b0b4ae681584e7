// envlock handover [--lock ...] [--format md|html|json] [-o FILE]: the handover record
// (docs/manual/handover.md).
#include "handover/handover.hpp"
#include "cli/command.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "handover/render.hpp"

#include <iostream>

namespace envlock::cli {

namespace {

struct HandoverOptions {
  handover::RecordPaths paths;
  std::string format; // md, html or json; empty: by -o's extension, else md
  std::string output; // "-": standard output
};

const std::vector<std::string> k_formats{"md", "html", "json"};

Result<ExitCode> run_handover(const HandoverOptions& o) {
  // --format wins; else the extension of -o's file chooses (an unknown one is refused); - alone
  // is Markdown.
  handover::HandoverFormat format = handover::HandoverFormat::markdown;
  if (!o.format.empty()) {
    format = o.format == "json"   ? handover::HandoverFormat::json
             : o.format == "html" ? handover::HandoverFormat::html
                                  : handover::HandoverFormat::markdown;
  } else if (o.output != "-") {
    ENVLOCK_TRY_ASSIGN(format, handover::handover_format_for(o.output));
  }
  ENVLOCK_TRY_ASSIGN(const handover::Records records, handover::read_records(o.paths));
  const handover::Handover handover = handover::build_handover(records);
  ENVLOCK_TRY_ASSIGN(const std::string text, handover::render_handover(handover, records, format));
  ENVLOCK_TRY(cmdline::write_output(o.output, text));
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
      app.add_option("--lock", p.lock, "The lock (envlock.lock.json)")
          ->check(CLI::ExistingFile)
          ->type_name("FILE");
      app.add_option("--provenance", p.provenance, "The provenance record")
          ->check(CLI::ExistingFile)
          ->type_name("FILE");
      app.add_option("--build-result", p.build_result, "build-result.json of envlock build")
          ->check(CLI::ExistingFile)
          ->type_name("FILE");
      app.add_option("--squashfs-result", p.squashfs_result,
                     "squashfs-result.json of envlock squashfs")
          ->check(CLI::ExistingFile)
          ->type_name("FILE");
      app.add_option("--reports", p.reports_dir, "A folder of verification reports (*.json)")
          ->check(CLI::ExistingDirectory)
          ->type_name("DIR");
      app.add_option("--node", p.node, "Host facts from envlock node --format json")
          ->check(CLI::ExistingFile)
          ->type_name("FILE");
      app.add_option("--previous-lock", p.previous_lock,
                     "The lock of the previous environment (the way back)")
          ->check(CLI::ExistingFile)
          ->type_name("FILE");
      cmdline::add_format_option(app, o->format, k_formats,
                                 "default: by -o's extension (.md, .html, .json); md for -o -");
      cmdline::add_output_option(app, o->output,
                                 "Write the record here, e.g. handover.md; - for standard output")
          ->required();
      cmdline::set_footer(app, "envlock handover --lock envlock.lock.json -o handover.md",
                          "docs/manual/handover.md");
      return [o] { return run_handover(*o); };
    },
}};

} // namespace

} // namespace envlock::cli
