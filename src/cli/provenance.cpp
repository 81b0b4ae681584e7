// `envlock provenance`: the SLSA provenance statement of a build; `provenance sign` wraps it in a
// signed DSSE envelope and `provenance verify` checks one (docs/manual/provenance.md).
#include "cli/commands.hpp"
#include "cli/project_files.hpp"
#include "cli/status_stream.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "provenance/inputs.hpp"
#include "provenance/key_files.hpp"
#include "provenance/signing.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"

#include <iostream>
#include <memory>

namespace envlock::cli::provenance_command {

namespace {

namespace fs = std::filesystem;
namespace pv = envlock::provenance;

constexpr std::uintmax_t k_statement_limit = std::uintmax_t{64} << 20;

struct StatementArgs {
  std::string lock = "envlock.lock.json";
  std::string build_result;
  std::string squashfs_result;
  std::string output; // empty: provenance.json in the lock's folder; "-": standard output
};

Result<ExitCode> run_statement(const StatementArgs& args) {
  ENVLOCK_TRY_ASSIGN(
      const pv::GatheredInputs gathered,
      pv::gather_inputs({args.lock, args.build_result, args.squashfs_result}, ENVLOCK_VERSION));
  for (const std::string& warning : gathered.warnings) {
    std::cerr << "envlock: warning: " << warning << "\n";
  }
  const std::string text = util::canonical_json(pv::make_statement(gathered.inputs));
  const fs::path lock_path = args.lock;
  const fs::path output =
      args.output.empty() ? lock_path.parent_path() / "provenance.json" : fs::path(args.output);
  if (args.output.empty()) {
    ENVLOCK_TRY(util::check_default_output(output, "-o"));
  }
  ENVLOCK_TRY(util::write_file_atomic(output, text));
  status_stream({output.string()})
      << "wrote " << output.string() << " (subject " << gathered.inputs.build.repository << "@"
      << gathered.inputs.build.digest << ")\n";
  return ExitCode::ok;
}

struct SignArgs {
  std::string key;
  std::string statement;
  std::string output;
};

// STATEMENT.dsse.json for STATEMENT, its ".json" replaced: provenance.json -> provenance.dsse.json.
fs::path envelope_path_for(const std::string& statement) {
  const std::string suffix = ".json";
  if (statement.size() > suffix.size() &&
      statement.compare(statement.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return statement.substr(0, statement.size() - suffix.size()) + ".dsse.json";
  }
  return statement + ".dsse.json";
}

Result<ExitCode> run_sign(const SignArgs& args) {
  fs::path key_path = args.key;
  if (key_path.empty()) {
    ENVLOCK_TRY_ASSIGN(key_path, pv::default_key_path());
  }
  ENVLOCK_TRY_ASSIGN(const pv::Key key, pv::read_key(key_path, pv::KeyHalf::private_key));
  ENVLOCK_TRY_ASSIGN(const std::string statement,
                     util::read_file_limited(args.statement, k_statement_limit));
  ENVLOCK_TRY_ASSIGN(const pv::Envelope envelope,
                     pv::sign_statement(statement, key, args.statement));
  const fs::path output =
      args.output.empty() ? envelope_path_for(args.statement) : fs::path(args.output);
  ENVLOCK_TRY(util::write_json_file(output, pv::to_json(envelope)));
  status_stream({output.string()})
      << "wrote " << output.string() << " (signed by key " << key.key_id() << ")\n";
  return ExitCode::ok;
}

struct VerifyArgs {
  std::string pub;
  std::string envelope;
  std::string image_digest;
};

Result<ExitCode> run_verify(const VerifyArgs& args) {
  ENVLOCK_TRY_ASSIGN(const pv::Key key, pv::read_key(args.pub, pv::KeyHalf::public_key));
  ENVLOCK_TRY_ASSIGN(const std::string text,
                     util::read_file_limited(args.envelope, k_statement_limit));
  ENVLOCK_TRY_ASSIGN(const pv::VerifiedStatement verified,
                     pv::verify_envelope(text, args.envelope, key, args.pub));
  if (!args.image_digest.empty()) {
    ENVLOCK_TRY(pv::check_subject_digest(verified.statement, args.image_digest, args.envelope));
  }
  std::cout << args.envelope << ": verified: signed by key " << verified.keyid << " (" << args.pub
            << ")";
  if (!args.image_digest.empty()) {
    std::cout << "; subject " << args.image_digest;
  }
  std::cout << "\n";
  return ExitCode::ok;
}

Runner setup(CLI::App& app) {
  auto statement = std::make_shared<StatementArgs>();
  const CLI::Option* lock =
      app.add_option("--lock", statement->lock,
                     "The lock the image was built from (default: envlock.lock.json, here or in a "
                     "folder above)")
          ->type_name("FILE");
  app.add_option("--build-result", statement->build_result,
                 "build-result.json of the build (default: beside the lock)")
      ->type_name("FILE");
  app.add_option("--squashfs-result", statement->squashfs_result,
                 "squashfs-result.json: adds the .sqsh as a second subject")
      ->type_name("FILE");
  cmdline::add_output_option(app, statement->output,
                             "Where to write the statement; - for standard output (default: "
                             "provenance.json beside the lock)");
  cmdline::set_footer(app, "envlock provenance -o provenance.json", "docs/manual/provenance.md");
  return [statement, lock] {
    find_in_parents(lock, statement->lock);
    return run_statement(*statement);
  };
}

Runner setup_sign(CLI::App& app) {
  auto args = std::make_shared<SignArgs>();
  app.add_option("--key", args->key,
                 "Ed25519 private key (envlock keygen; default: ~/.config/envlock/signing.key)")
      ->type_name("FILE");
  app.add_option("statement", args->statement, "provenance.json")->required();
  cmdline::add_output_option(app, args->output,
                             "The envelope to write; - for standard output (default: "
                             "provenance.dsse.json for provenance.json)");
  cmdline::set_footer(app, "envlock provenance sign --key signing.key provenance.json",
                      "docs/manual/provenance.md");
  return [args] { return run_sign(*args); };
}

Runner setup_verify(CLI::App& app) {
  auto args = std::make_shared<VerifyArgs>();
  app.add_option("--pub", args->pub, "The signer's public key (KEY.pub)")
      ->required()
      ->type_name("FILE");
  app.add_option("envelope", args->envelope, "provenance.dsse.json")->required();
  app.add_option("--image-digest", args->image_digest,
                 "Also require a subject with this digest (sha256:...)")
      ->type_name("DIGEST");
  cmdline::set_footer(app, "envlock provenance verify --pub signing.key.pub provenance.dsse.json",
                      "docs/manual/provenance.md");
  return [args] { return run_verify(*args); };
}

} // namespace

CommandSpec spec() {
  return {
      "provenance",
      "Write, sign or verify the SLSA provenance of a build",
      setup,
      {
          {"sign", "Sign a statement into a DSSE envelope", setup_sign},
          {"verify", "Check a signed envelope", setup_verify},
      },
  };
}

} // namespace envlock::cli::provenance_command
