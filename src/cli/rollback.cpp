// `envlock rollback check`: can the previous environment still be retrieved (its image digests in
// the registry, its .sqsh on disk, with --pub its signed provenance among the image's
// attestations)? docs/manual/rollback.md.
#include "attest/list.hpp"
#include "cli/commands.hpp"
#include "cli/registry_options.hpp"
#include "cli/status_stream.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "rollback/check.hpp"
#include "util/clock.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"

#include <chrono>
#include <iostream>
#include <memory>
#include <unistd.h>

namespace envlock::cli::rollback_command {

namespace {

struct RollbackArgs {
  rollback::Inputs inputs;
  std::string json;   // -o FILE, the report ("-": standard output)
  std::string format; // text or json; empty: json to -o's file, else the table
  oci::RegistryOptions registry;
};

// The provenance attestations of `image`, fetched by its digest (envlock attest list and fetch).
Result<rollback::Attached> attached_provenance(oci::RegistryClient& client,
                                               const oci::ImageRef& image) {
  ENVLOCK_TRY_ASSIGN(const attest::AttestationList list,
                     attest::list_attestations(client, image, attest::Kind::provenance));
  rollback::Attached out;
  out.looked_in = list.via == attest::Listing::referrers_api ? std::string("the referrers API")
                                                             : "tag " + list.tag;
  for (const auto& listed : list.referrers) {
    ENVLOCK_TRY_ASSIGN(attest::Fetched fetched, attest::fetch_attestation(client, image, listed));
    out.files.push_back({listed.digest, std::move(fetched.bytes)});
  }
  return out;
}

std::string host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string();
}

Result<ExitCode> run_rollback_check(const RollbackArgs& args) {
  if (!args.json.empty()) {
    ENVLOCK_TRY(util::output_target(args.json));
  }
  const auto start = std::chrono::steady_clock::now();
  oci::RegistryClient client(args.registry);
  const rollback::ManifestProbe probe = [&client](const oci::ImageRef& image) {
    return client.head_manifest(image, image.digest);
  };
  const rollback::AttachedProbe attached = [&client](const oci::ImageRef& image) {
    return attached_provenance(client, image);
  };
  ENVLOCK_TRY_ASSIGN(rollback::Report report,
                     rollback::check_rollback(args.inputs, probe, attached));
  report.tool_version = ENVLOCK_VERSION;
  report.checked_at = util::rfc3339_utc(std::chrono::system_clock::now());
  report.hostname = host_name();
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string format = !args.format.empty() ? args.format
                             : args.json.empty()  ? std::string("text")
                                                  : std::string("json");
  const std::string text = rollback::report_to_text(report);
  if (format == "text") {
    ENVLOCK_TRY(cmdline::write_output(args.json, text));
    return rollback::exit_code_of(report);
  }
  // JSON to -o's file or standard output; the table then to standard error.
  const std::string output = args.json.empty() ? std::string("-") : args.json;
  status_stream({output}) << text << std::flush;
  ENVLOCK_TRY(
      cmdline::write_output(output, util::canonical_json(rollback::report_to_json(report))));
  return rollback::exit_code_of(report);
}

Runner setup_check(CLI::App& app) {
  auto args = std::make_shared<RollbackArgs>();
  rollback::Inputs& in = args->inputs;
  app.add_option("--previous", in.previous_lock, "The lock of the environment to return to")
      ->required()
      ->type_name("FILE");
  app.add_option("--lock", in.current_lock, "The lock of the environment now in use (recorded)")
      ->type_name("FILE");
  app.add_option("--previous-build-result", in.build_result,
                 "The previous build's build-result.json (default: beside --previous)")
      ->type_name("FILE");
  app.add_option("--previous-squashfs-result", in.squashfs_result,
                 "The previous squashfs result (default: the one beside --previous)")
      ->type_name("FILE");
  app.add_option("--sqsh-dir", in.sqsh_dir,
                 "Where the previous .sqsh lies (a node-local copy; default: beside its result)")
      ->type_name("DIR");
  app.add_option("--pub", in.public_key,
                 "Also check that the previous image's provenance, signed by this key (KEY.pub), "
                 "is attached to it in the registry")
      ->type_name("FILE");
  cmdline::add_output_option(app, args->json,
                             "Write the report here (as JSON, envlock.rollback-report/v1, unless "
                             "--format text); - for standard output, which moves the table to "
                             "standard error");
  cmdline::add_format_option(app, args->format, {"text", "json"},
                             "default: json with -o, else the table on standard output");
  add_registry_options(app, args->registry);
  cmdline::set_footer(
      app, "envlock rollback check --previous previous.lock.json -o rollback-report.json",
      "docs/manual/rollback.md");
  return [args] { return run_rollback_check(*args); };
}

} // namespace

CommandSpec spec() {
  return {
      "rollback",
      "Check that the previous environment can still be retrieved",
      nullptr,
      {{"check", "Check the previous image digests in the registry and the previous .sqsh on disk",
        setup_check}},
  };
}

} // namespace envlock::cli::rollback_command
