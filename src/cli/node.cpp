// envlock node [--format text|json] [-o FILE] [--check --lock FILE]: the facts of this host, and
// whether they meet the lock's expect.host (docs/manual/node.md).
#include "cli/commands.hpp"
#include "cmdline/colour.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "formats/node_facts.hpp"
#include "lock/lock.hpp"
#include "node/facts.hpp"
#include "node/health/health_text.hpp"
#include "node/health/judge.hpp"
#include "node/host_check.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"
#include "verify/report/report.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace envlock::cli::node_command {

namespace {

struct NodeOptions {
  std::string format; // text or json; empty: by -o's extension, else text
  std::string output; // empty: standard output
  bool check = false;
  bool idle = false;          // --idle: a process on a GPU is a fault (the prolog)
  bool no_dcgm = false;       // --no-dcgm: leave dcgmi diag out
  std::vector<long> own_pids; // --own-pid: the check's own processes descend from these
  double nvml_timeout = 5;    // --nvml-timeout: seconds NVML may take
  std::string lock_path = "envlock.lock.json";
  cmdline::ColourWhen colour = cmdline::ColourWhen::automatic;
};

std::string facts_text(const nlohmann::json& facts) {
  std::ostringstream out;
  out << "Host facts\n";
  for (const auto& [key, fact] : facts["facts"].items()) {
    out << "  " << std::left << std::setw(18) << key << " ";
    if (fact["value"].is_string()) {
      out << fact["value"].get<std::string>() << "  (" << fact.value("source", "") << ")\n";
    } else {
      out << "missing: " << fact.value("missing", "") << "\n";
    }
  }
  out << "GPUs\n";
  if (facts["gpus"].empty()) {
    out << "  none\n";
  }
  for (const auto& gpu : facts["gpus"]) {
    out << "  " << gpu.value("index", 0) << "  " << gpu.value("name", nlohmann::json("?")).dump()
        << "  " << gpu.value("uuid", nlohmann::json("?")).dump() << "  vbios "
        << gpu.value("vbios", nlohmann::json("?")).dump() << "  health " << gpu.value("health", "")
        << "\n";
  }
  if (facts.contains("health")) {
    out << node::health::health_facts_text(facts["health"]);
  }
  return out.str();
}

// A check that fails because the node's facts could not be read or judged at all (an exception
// past every reader's own handling): hostile input is a failed rule, never "not judged".
verify::CheckResult unjudged_check(const std::string& what) {
  verify::CheckResult r;
  r.id = "health.node.facts";
  r.group = "health";
  r.title = "The node's facts can be read and judged";
  r.expected = "read and judged";
  r.outcome = verify::Outcome::fail;
  r.reason = "cannot be read: " + util::escape_invalid_utf8(what) + "; drain, investigate";
  r.details["drain"] = "health.node.facts: drain, investigate";
  return r;
}

Result<ExitCode> run_node(const NodeOptions& o) {
  node::HostSources sources = node::host_sources_from_environment();
  sources.dcgm = o.no_dcgm ? node::DcgmDiag::skip : node::DcgmDiag::run;
  sources.nvml_deadline =
      std::chrono::milliseconds(static_cast<long long>(std::max(0.1, o.nvml_timeout) * 1000));
  std::vector<verify::CheckResult> checks;
  std::optional<lock::Lock> l;
  if (o.check) {
    ENVLOCK_TRY_ASSIGN(l, lock::read_lock(o.lock_path));
  }
  nlohmann::json facts;
  try {
    facts = node::collect_host_facts(sources);
    if (l) {
      checks = node::check_host(facts, l->expect.host);
      // Every GPU NVML sees is judged, whatever the lock says about GPUs; expect.host.health
      // only sets the thresholds.
      auto options = node::health::judge_options(
          l->expect, o.idle ? node::health::Idle::expected : node::health::Idle::not_expected);
      options.own_pids = o.own_pids;
      const auto health = node::health::check_health(facts, options);
      checks.insert(checks.end(), health.begin(), health.end());
    }
  } catch (const std::exception& e) {
    if (!o.check) {
      throw;
    }
    facts = {{"schema", node::k_facts_schema},
             {"facts", nlohmann::json::object()},
             {"gpus", nlohmann::json::array()}};
    checks = {unjudged_check(e.what())};
  }
  for (auto& c : checks) {
    // What the checks say comes from the host: text, whatever bytes it held.
    for (std::string* text : {&c.reason, &c.found, &c.expected, &c.title}) {
      *text = util::escape_invalid_utf8(*text);
    }
    node::make_valid_utf8(c.details);
  }
  verify::Report report;
  report.tool_version = ENVLOCK_VERSION;
  report.mode = "live";
  report.checks = checks;
  const std::string format =
      !o.format.empty()
          ? o.format
          : cmdline::format_for_extension(o.output, {"text", "json"}).value_or("text");
  std::string text;
  if (format == "json") {
    // Written through the record's own writer, so what `envlock node` prints is what its readers
    // (handover --node, envlock-verify --host-facts, fleet) read.
    ENVLOCK_TRY_ASSIGN(formats::NodeFacts typed,
                       formats::from_json<formats::NodeFacts>(facts, "this host's facts"));
    if (o.check) {
      typed.checks = checks;
    }
    text = util::canonical_json(formats::to_json(typed));
  } else {
    text = facts_text(facts);
    if (o.check) {
      const bool to_stdout = o.output.empty() || o.output == "-";
      const bool colour = cmdline::use_colour(o.colour, to_stdout ? STDOUT_FILENO : -1);
      text += "\nexpect.host of " + o.lock_path + "\n" +
              verify::report_to_table(report, colour ? verify::Colour::on : verify::Colour::off);
    }
  }
  const Status written = cmdline::write_output(o.output, text);
  const ExitCode code = verify::summarize(checks).failed > 0 ? ExitCode::failed : ExitCode::ok;
  if (node::nvml_abandoned()) {
    // A thread is still inside an NVML call that outlived its deadline: it cannot be joined,
    // and NVML's destructors must not run beneath it. The output is written; end here.
    if (!written) {
      std::cerr << "envlock: error: " << written.error().message << "\n";
    }
    std::cout.flush();
    std::cerr.flush();
    (void)std::fflush(nullptr);
    ::_exit(written ? static_cast<int>(code) : static_cast<int>(ExitCode::environment));
  }
  ENVLOCK_TRY(written);
  return code;
}

} // namespace

CommandSpec spec() {
  return {
      "node",
      "Show this host's hardware, firmware, OS, driver, GPU, tool versions and health; --check "
      "them",
      [](CLI::App& app) -> Runner {
        auto o = std::make_shared<NodeOptions>();
        cmdline::add_format_option(app, o->format, {"text", "json"},
                                   "default: by -o's extension, else text; json: "
                                   "docs/formats/node-facts.md");
        cmdline::add_output_option(app, o->output,
                                   "Write the facts here; - for standard output (default: "
                                   "standard output)");
        cmdline::add_old_flag(app, "--json", "--format json", [o] { o->format = "json"; });
        app.add_flag("--check", o->check,
                     "Compare the facts with the lock's expect.host and judge the node's health");
        app.add_flag("--idle", o->idle,
                     "With --check: the node should be idle (a prolog); a process on a GPU fails");
        app.add_flag("--no-dcgm", o->no_dcgm, "Do not run dcgmi diag -r 1 where DCGM is installed");
        app.add_option("--own-pid", o->own_pids,
                       "With --idle: GPU processes of root descended from PID are the check's "
                       "own (the prolog's envlock-verify); repeatable")
            ->type_name("PID")
            ->check(CLI::PositiveNumber);
        app.add_option("--nvml-timeout", o->nvml_timeout,
                       "Seconds NVML may take to answer; a call still unanswered fails its GPU "
                       "(default 5)")
            ->type_name("SECONDS")
            ->check(CLI::Range(0.1, 3600.0));
        app.add_option("--lock", o->lock_path, "The lock for --check (default: envlock.lock.json)")
            ->type_name("FILE");
        cmdline::add_colour_option(app, o->colour);
        cmdline::set_footer(app, "envlock node --check --lock envlock.lock.json",
                            "docs/manual/node.md");
        return [o] { return run_node(*o); };
      },
  };
}

} // namespace envlock::cli::node_command
