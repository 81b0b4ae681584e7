// `envlock keygen`: an Ed25519 key pair for signing provenance (docs/manual/keygen.md).
#include "cli/commands.hpp"
#include "cmdline/help.hpp"
#include "provenance/key_files.hpp"

#include <iostream>
#include <memory>

namespace envlock::cli::keygen_command {

namespace {

namespace pv = envlock::provenance;

struct KeygenArgs {
  std::string output;
  bool force = false;
};

Result<ExitCode> run_keygen(const KeygenArgs& args) {
  const pv::Overwrite overwrite = args.force ? pv::Overwrite::replace : pv::Overwrite::refuse;
  ENVLOCK_TRY_ASSIGN(const std::string key_id, pv::write_key_pair(args.output, overwrite));
  std::cout << "wrote " << args.output << " (private, mode 0600) and "
            << pv::public_key_path(args.output).string() << "\nkey id " << key_id << "\n";
  return ExitCode::ok;
}

Runner setup(CLI::App& app) {
  auto args = std::make_shared<KeygenArgs>();
  app.add_option("-o,--output", args->output, "The private key file; the public key is FILE.pub")
      ->required()
      ->type_name("FILE");
  app.add_flag("--force", args->force, "Replace existing key files");
  cmdline::set_footer(app, "envlock keygen -o signing.key", "docs/manual/keygen.md");
  return [args] { return run_keygen(*args); };
}

} // namespace

CommandSpec spec() {
  return {"keygen", "Make an Ed25519 key pair for signing provenance", setup};
}

} // namespace envlock::cli::keygen_command
