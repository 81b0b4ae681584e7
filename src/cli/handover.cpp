// envlock handover [--lock ...] [--format md|html|json] [-o FILE]: the handover record
// (docs/manual/handover.md). With no record named, the usual files of this folder; with no -o,
// handover.md.
#include "handover/handover.hpp"
#include "cli/commands.hpp"
#include "cli/project_files.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "formats/squashfs_result.hpp"
#include "handover/consistency.hpp"
#include "handover/render.hpp"
#include "util/fs.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

namespace envlock::cli::handover_command {

namespace {

struct HandoverOptions {
  handover::RecordPaths paths;
  std::string format; // md, html or json; empty: by -o's extension, else md
  std::string output; // "-": standard output; empty: handover.md
};

const std::vector<std::string> k_formats{"md", "html", "json"};

// With no record named: the usual files of the project's folder (the current one, else the
// nearest above it holding envlock.lock.json) that exist (the lock, the build's, squashfs's and
// provenance's results, reports/), each said on stderr. Without a lock there is no handover.
Result<handover::RecordPaths> usual_records(std::filesystem::path& folder) {
  namespace fs = std::filesystem;
  std::string lock = "envlock.lock.json";
  find_in_parents(nullptr, lock);
  std::error_code exists_ec;
  if (!fs::exists(lock, exists_ec)) {
    return input_error("no envlock.lock.json here or in a folder above: run 'envlock lock', or "
                       "name the records (--lock FILE, --build-result FILE, ...)");
  }
  folder = fs::path(lock).parent_path();
  handover::RecordPaths p;
  const auto take = [&folder](fs::path& slot, const fs::path& name) {
    std::error_code ec;
    const fs::path candidate = folder / name;
    if (fs::exists(candidate, ec)) {
      slot = candidate;
      std::cerr << "envlock: reading " << candidate.string() << "\n";
    }
  };
  take(p.lock, "envlock.lock.json");
  take(p.provenance, formats::k_provenance_file);
  take(p.build_result, formats::k_build_result_file);
  take(p.node, formats::k_node_facts_file);
  take(p.previous_lock, "previous.lock.json");
  take(p.rollback, formats::k_rollback_report_file);
  const std::vector<fs::path> results = formats::squashfs_results_in(folder);
  if (results.size() == 1) {
    take(p.squashfs_result, results.front().filename());
  } else if (results.size() > 1) {
    std::cerr << "envlock: " << results.size()
              << " squashfs results here; name the one with --squashfs-result\n";
  }
  std::error_code ec;
  if (fs::is_directory(folder / "reports", ec)) {
    p.reports_dir = folder / "reports";
    std::cerr << "envlock: reading " << (folder / "reports").string() << "/*.json\n";
  }
  return p;
}

bool none_named(const handover::RecordPaths& p) {
  return p.lock.empty() && p.provenance.empty() && p.build_result.empty() &&
         p.squashfs_result.empty() && p.node.empty() && p.reports_dir.empty() &&
         p.previous_lock.empty() && p.rollback.empty();
}

Result<ExitCode> run_handover(HandoverOptions o) {
  // --format wins; else the extension of -o's file chooses (an unknown one is refused); - alone
  // and the default handover.md are Markdown.
  handover::HandoverFormat format = handover::HandoverFormat::markdown;
  if (!o.format.empty()) {
    format = o.format == "json"   ? handover::HandoverFormat::json
             : o.format == "html" ? handover::HandoverFormat::html
                                  : handover::HandoverFormat::markdown;
  } else if (!o.output.empty() && o.output != "-") {
    ENVLOCK_TRY_ASSIGN(format, handover::handover_format_for(o.output));
  }
  std::filesystem::path folder; // where the usual records were found
  if (none_named(o.paths)) {
    ENVLOCK_TRY_ASSIGN(o.paths, usual_records(folder));
  }
  if (o.output.empty()) {
    o.output = (folder / "handover.md").string();
    ENVLOCK_TRY(util::check_default_output(o.output, "-o"));
  }
  ENVLOCK_TRY_ASSIGN(const handover::Records records, handover::read_records(o.paths));
  if (const auto mismatched = handover::mismatched_records(records); !mismatched.empty()) {
    std::string message = "the records given do not describe one build (no handover written):";
    for (const auto& line : mismatched) {
      message += "\n  " + line;
    }
    return check_failed(std::move(message));
  }
  const handover::Handover handover = handover::build_handover(records);
  ENVLOCK_TRY_ASSIGN(const std::string text, handover::render_handover(handover, records, format));
  ENVLOCK_TRY(cmdline::write_output(o.output, text));
  std::size_t missing = 0;
  for (const auto& row : handover.rows) {
    for (const auto& item : row.items) {
      missing += item.value ? 0 : 1;
    }
  }
  const std::string where = o.output == "-" ? "the handover to standard output" : o.output;
  std::cerr << "envlock: wrote " << where << " (" << missing
            << (missing == 1 ? " item missing)\n" : " items missing)\n");
  return ExitCode::ok;
}

} // namespace

CommandSpec spec() {
  return {
      "handover",
      "Write the environment handover record (Markdown, HTML or JSON) from the records given, "
      "or from the usual files of this folder",
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
                       "The squashfs result of envlock squashfs (NAME.squashfs-result.json)")
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
        app.add_option("--rollback", p.rollback,
                       "The report of envlock rollback check -o FILE (row 7)")
            ->check(CLI::ExistingFile)
            ->type_name("FILE");
        cmdline::add_format_option(app, o->format, k_formats,
                                   "default: by -o's extension (.md, .html, .json); md for -o -");
        cmdline::add_output_option(app, o->output,
                                   "Write the record here (default: handover.md); - for standard "
                                   "output");
        cmdline::set_footer(app, "envlock handover", "docs/manual/handover.md");
        return [o] { return run_handover(*o); };
      },
  };
}

} // namespace envlock::cli::handover_command
