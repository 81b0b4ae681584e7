// `envlock chain verify`: every link from the signed provenance to each node's report
// (docs/manual/chain.md).
#include "chain/chain.hpp"
#include "chain/evidence.hpp"
#include "chain/node_keys.hpp"
#include "cli/commands.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "formats/report.hpp"
#include "formats/squashfs_result.hpp"
#include "util/json.hpp"

#include <iostream>
#include <memory>
#include <sstream>

namespace envlock::cli::chain_command {

namespace {

namespace fs = std::filesystem;

struct ChainArgs {
  std::string provenance;
  std::string pub;
  std::string squashfs_result;
  std::string results;
  std::string node_keys;
  bool accept_unsigned = false;
  std::vector<std::string> reports;
  std::string format; // text or json; empty: by -o's extension, else text
  std::string output; // empty: standard output
};

nlohmann::json chain_json(const chain::SignedLinks& s,
                          const std::vector<chain::LinkCheck>& checks) {
  nlohmann::json records = nlohmann::json::array();
  for (const auto& check : checks) {
    nlohmann::json one = {
        {"record", check.record},
        {"links", check.broken.empty() ? "hold" : "broken"},
        {"broken", check.broken.empty() ? nlohmann::json(nullptr) : nlohmann::json(check.broken)},
        {"line", chain::render_check(check)}};
    if (check.node) {
      one["outcome"] = check.node->outcome.empty() ? nlohmann::json(nullptr)
                                                   : nlohmann::json(check.node->outcome);
      one["node"] = check.who.node;
      one["signed"] = check.who.signed_by_node;
      one["counted"] = check.node_passed();
      one["refused"] =
          check.refused.empty() ? nlohmann::json(nullptr) : nlohmann::json(check.refused);
      one["not_counted"] =
          check.not_counted.empty() ? nlohmann::json(nullptr) : nlohmann::json(check.not_counted);
    }
    records.push_back(std::move(one));
  }
  return {{"provenance",
           {{"file", s.origin},
            {"keyid", s.keyid},
            {"lock_sha256", s.lock_sha256},
            {"image", s.image_name + "@" + s.image_digest},
            {"sqsh_sha256", s.sqsh_sha256 ? nlohmann::json(*s.sqsh_sha256) : nlohmann::json()}}},
          {"records", records}};
}

Result<ExitCode> run_chain_verify(const ChainArgs& args) {
  ENVLOCK_TRY_ASSIGN(const chain::SignedLinks signed_links,
                     chain::read_signed_links(args.provenance, args.pub));
  std::ostringstream out;
  out << signed_links.origin << ": signed by key " << signed_links.keyid << ": lock "
      << signed_links.lock_sha256 << ", image " << signed_links.image_name << "@"
      << signed_links.image_digest;
  if (signed_links.sqsh_sha256) {
    out << ", .sqsh " << *signed_links.sqsh_sha256;
  }
  out << "\n";
  std::optional<chain::NodeKeys> node_keys;
  if (!args.node_keys.empty()) {
    ENVLOCK_TRY_ASSIGN(node_keys, chain::read_node_keys(args.node_keys, signed_links.keyid));
  }
  std::vector<chain::LinkCheck> checks;
  std::optional<std::string> squashed;
  if (!args.squashfs_result.empty()) {
    ENVLOCK_TRY_ASSIGN(const formats::SquashfsResult result,
                       formats::read_squashfs_result(args.squashfs_result));
    const std::string name = fs::path(args.squashfs_result).filename().string();
    checks.push_back(chain::check_squashfs_result(signed_links, result, name));
    squashed = result.sha256;
  }
  std::vector<fs::path> reports(args.reports.begin(), args.reports.end());
  if (!args.results.empty()) {
    const auto found = chain::reports_in(args.results);
    if (found.empty()) {
      return input_error("--results " + args.results + ": no verification report (*.json, " +
                         "nodes/*.json with schema " + formats::k_report_schema + ")");
    }
    reports.insert(reports.end(), found.begin(), found.end());
  }
  for (const auto& path : reports) {
    ENVLOCK_TRY_ASSIGN(
        chain::LinkCheck check,
        chain::check_report_file(signed_links, path, squashed, node_keys ? &*node_keys : nullptr));
    checks.push_back(std::move(check));
  }
  chain::judge_evidence(checks, signed_links,
                        args.accept_unsigned ? chain::UnsignedReports::accepted
                                             : chain::UnsignedReports::not_counted);
  std::size_t broken = 0;
  std::size_t nodes = 0;
  std::size_t passed = 0;
  std::size_t refused = 0;
  std::size_t unsigned_nodes = 0;
  std::size_t unsigned_counted = 0;
  for (const auto& check : checks) {
    out << chain::render_check(check) << "\n";
    broken += check.broken.empty() ? 0 : 1;
    if (check.node) {
      ++nodes;
      passed += check.node_passed() ? 1 : 0;
      refused += check.broken.empty() && !check.refused.empty() ? 1 : 0;
      unsigned_nodes += check.who.signed_by_node ? 0 : 1;
      unsigned_counted += !check.who.signed_by_node && check.node_passed() ? 1 : 0;
    }
  }
  out << checks.size() - broken << " of " << checks.size() << " records chain to "
      << signed_links.origin;
  if (nodes > 0) {
    out << "; " << passed << " of " << nodes
        << " nodes passed (links holding, outcome pass, not refused)";
    if (refused > 0) {
      out << "; " << refused << " refused as no evidence of a passing node";
    }
    if (unsigned_nodes > 0) {
      out << "; " << unsigned_nodes << " unsigned " << (unsigned_nodes == 1 ? "report" : "reports")
          << (args.accept_unsigned ? " accepted (--accept-unsigned), " +
                                         std::to_string(unsigned_counted) + " of them counted"
                                   : " not counted (--accept-unsigned counts them)");
    }
  }
  out << "\n";
  const bool all = broken == 0 && passed == nodes;
  const std::string format =
      !args.format.empty()
          ? args.format
          : cmdline::format_for_extension(args.output, {"text", "json"}).value_or("text");
  if (format == "json") {
    nlohmann::json doc = chain_json(signed_links, checks);
    doc["chained"] = checks.size() - broken;
    doc["nodes"] = nodes;
    doc["nodes_passed"] = passed;
    doc["nodes_refused"] = refused;
    doc["nodes_unsigned"] = unsigned_nodes;
    doc["unsigned_accepted"] = args.accept_unsigned;
    doc["verdict"] = all ? "pass" : "fail";
    ENVLOCK_TRY(cmdline::write_output(args.output, util::canonical_json(doc)));
  } else {
    ENVLOCK_TRY(cmdline::write_output(args.output, out.str()));
  }
  return all ? ExitCode::ok : ExitCode::failed;
}

Runner setup_verify(CLI::App& app) {
  auto args = std::make_shared<ChainArgs>();
  app.add_option("--provenance", args->provenance, "The signed provenance (provenance.dsse.json)")
      ->required()
      ->type_name("FILE");
  app.add_option("--pub", args->pub, "The provenance signer's public key (KEY.pub)")
      ->required()
      ->type_name("FILE");
  app.add_option("--squashfs-result", args->squashfs_result,
                 "The squashfs-result.json of the .sqsh the nodes run")
      ->type_name("FILE");
  app.add_option("--results", args->results,
                 "A results folder (envlock fleet verify's): its reports, nodes/*.json included")
      ->type_name("DIR");
  app.add_option("--node-keys", args->node_keys,
                 "The nodes' own public keys, NODE.pub each (envlock keygen --node on the node): "
                 "a verdict counts for the node whose key signed it")
      ->type_name("DIR");
  app.add_flag("--accept-unsigned", args->accept_unsigned,
               "Count unsigned verification reports as nodes (nothing vouches for their bytes; "
               "the output says they were accepted)");
  app.add_option("reports", args->reports,
                 "Verification reports (envlock-verify --format json) or signed node verdicts "
                 "(envlock attest verdict)");
  cmdline::add_format_option(app, args->format, {"text", "json"},
                             "default: by -o's extension, else text; json is canonical");
  cmdline::add_output_option(app, args->output,
                             "Write the answer here; - for standard output (default: standard "
                             "output)");
  cmdline::set_footer(app,
                      "envlock chain verify --provenance provenance.dsse.json --pub key.pub "
                      "--node-keys node-keys --results fleet-results",
                      "docs/manual/chain.md");
  return [args] { return run_chain_verify(*args); };
}

} // namespace

CommandSpec spec() {
  return {
      "chain",
      "Check every link from the signed provenance to each node's report",
      nullptr,
      {{"verify", "Check the links of the provenance, the squashfs result and the reports",
        setup_verify}},
  };
}

} // namespace envlock::cli::chain_command
