// `envlock chain verify`: every link from the signed provenance to each node's report
// (docs/manual/chain.md).
#include "chain/chain.hpp"
#include "cli/commands.hpp"
#include "cmdline/help.hpp"
#include "util/json.hpp"

#include <iostream>
#include <memory>

namespace envlock::cli::chain_command {

namespace {

namespace fs = std::filesystem;

struct ChainArgs {
  std::string provenance;
  std::string pub;
  std::string squashfs_result;
  std::string results;
  std::vector<std::string> reports;
};

Result<ExitCode> run_chain_verify(const ChainArgs& args) {
  ENVLOCK_TRY_ASSIGN(const chain::SignedLinks signed_links,
                     chain::read_signed_links(args.provenance, args.pub));
  std::cout << signed_links.origin << ": signed by key " << signed_links.keyid << ": lock "
            << signed_links.lock_sha256 << ", image " << signed_links.image_name << "@"
            << signed_links.image_digest;
  if (signed_links.sqsh_sha256) {
    std::cout << ", .sqsh " << *signed_links.sqsh_sha256;
  }
  std::cout << "\n";
  std::vector<chain::LinkCheck> checks;
  std::optional<std::string> squashed;
  if (!args.squashfs_result.empty()) {
    ENVLOCK_TRY_ASSIGN(const nlohmann::json result, util::read_json_file(args.squashfs_result));
    const std::string name = fs::path(args.squashfs_result).filename().string();
    checks.push_back(chain::check_squashfs_result(signed_links, result, name));
    if (result.contains("sqsh") && result["sqsh"].is_object() &&
        result["sqsh"].value("sha256", "") != "") {
      squashed = result["sqsh"]["sha256"].get<std::string>();
    }
  }
  std::vector<fs::path> reports(args.reports.begin(), args.reports.end());
  if (!args.results.empty()) {
    const auto found = chain::reports_in(args.results);
    if (found.empty()) {
      return input_error("--results " + args.results + ": no verification report (*.json, " +
                         "nodes/*.json with schema envlock.report/v1)");
    }
    reports.insert(reports.end(), found.begin(), found.end());
  }
  for (const auto& path : reports) {
    ENVLOCK_TRY_ASSIGN(const nlohmann::json report, util::read_json_file(path));
    checks.push_back(chain::check_report(signed_links, report, path.filename().string(), squashed));
  }
  std::size_t broken = 0;
  for (const auto& check : checks) {
    if (check.broken.empty()) {
      std::cout << check.record << ": ok: " << check.summary << "\n";
    } else {
      std::cout << check.broken << "\n";
      ++broken;
    }
  }
  std::cout << checks.size() - broken << " of " << checks.size() << " records chain to "
            << signed_links.origin << "\n";
  return broken == 0 ? ExitCode::ok : ExitCode::failed;
}

Runner setup_verify(CLI::App& app) {
  auto args = std::make_shared<ChainArgs>();
  app.add_option("--provenance", args->provenance, "The signed provenance (provenance.dsse.json)")
      ->required()
      ->type_name("FILE");
  app.add_option("--pub", args->pub, "The signer's public key (KEY.pub)")
      ->required()
      ->type_name("FILE");
  app.add_option("--squashfs-result", args->squashfs_result,
                 "The squashfs-result.json of the .sqsh the nodes run")
      ->type_name("FILE");
  app.add_option("--results", args->results,
                 "A results folder (envlock fleet verify's): its reports, nodes/*.json included")
      ->type_name("DIR");
  app.add_option("reports", args->reports, "Verification reports (envlock-verify --format json)");
  cmdline::set_footer(app,
                      "envlock chain verify --provenance provenance.dsse.json --pub key.pub "
                      "--results fleet-results",
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
