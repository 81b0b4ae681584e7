// envlock fleet drain-list [--results DIR] [--apply]: the scontrol lines that drain the nodes a
// fleet run failed and resume the ones envlock drained that have passed since.
#include "fleet/drain.hpp"
#include "cli/fleet/fleet.hpp"
#include "cmdline/help.hpp"
#include "fleet/distribute.hpp"
#include "formats/distribute_report.hpp"
#include "formats/fleet_report.hpp"
#include "util/process.hpp"
#include "util/strings.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

namespace envlock::cli::fleet_drain_command {

namespace fs = std::filesystem;

namespace {

struct Options {
  std::string results = "fleet-results";
  bool apply = false;
};

// The verdicts of the fleet report and, when there is one, of the distribute report.
Result<std::vector<fleet::NodeVerdict>> read_verdicts(const fs::path& results) {
  std::vector<std::vector<fleet::NodeVerdict>> lists;
  std::error_code ec;
  const fs::path fleet_json = results / formats::k_fleet_report_file;
  const fs::path distribute_json = results / formats::k_distribute_report_file;
  if (!fs::exists(fleet_json, ec) && !fs::exists(distribute_json, ec)) {
    return input_error(results.string() +
                       ": no fleet-report.json or distribute-report.json; run envlock fleet "
                       "verify or distribute first");
  }
  if (fs::exists(fleet_json, ec)) {
    ENVLOCK_TRY_ASSIGN(const formats::FleetReport report, formats::read_fleet_report(fleet_json));
    lists.push_back(fleet::verdicts_from_report(report));
  }
  if (fs::exists(distribute_json, ec)) {
    ENVLOCK_TRY_ASSIGN(const formats::DistributeReport report,
                       formats::read_distribute_report(distribute_json));
    lists.push_back(fleet::verdicts_from_distribute(report));
  }
  return fleet::merge_verdicts(lists);
}

Result<ExitCode> run_drain_list(const Options& o) {
  ENVLOCK_TRY_ASSIGN(const auto verdicts, read_verdicts(o.results));
  ENVLOCK_TRY_ASSIGN(const auto states, fleet::node_states());
  const auto actions = fleet::drain_actions(verdicts, states);
  for (const auto& a : actions) {
    std::cout << a.line << "\n";
    if (!o.apply) {
      continue;
    }
    ENVLOCK_TRY_ASSIGN(const auto result, util::run_process(a.argv));
    if (result.exit_code != 0) {
      return env_error(a.line + ": exit " + std::to_string(result.exit_code) + ": " +
                       std::string(util::trim(result.err)));
    }
  }
  std::cout.flush();
  return ExitCode::ok;
}

} // namespace

Runner setup(CLI::App& fleet) {
  auto o = std::make_shared<Options>();
  fleet.add_option("--results", o->results, "The results folder of a fleet verify or distribute")
      ->capture_default_str()
      ->type_name("DIR");
  fleet.add_flag("--apply", o->apply, "Run the scontrol lines as well as printing them");
  cmdline::set_footer(fleet, "envlock fleet drain-list --results fleet-results",
                      "docs/manual/fleet.md");
  return [o] { return run_drain_list(*o); };
}

} // namespace envlock::cli::fleet_drain_command
