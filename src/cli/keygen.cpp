// `envlock keygen`: an Ed25519 key pair for signing provenance, or with --node a node's own key
// pair for signing its verdicts (docs/manual/keygen.md).
#include "cli/commands.hpp"
#include "cmdline/help.hpp"
#include "provenance/key_files.hpp"
#include "util/process.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>

namespace envlock::cli::keygen_command {

namespace {

namespace pv = envlock::provenance;

namespace fs = std::filesystem;

struct KeygenArgs {
  std::string output;
  bool force = false;
  bool in_tree = false;
  bool node = false;
};

constexpr const char* k_node_key_path = "/etc/envlock/node.key";

std::string this_host() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : std::string();
}

// The git work tree that holds `key`'s folder, found as git finds it (a .git folder or file in
// the folder or one above).
std::optional<fs::path> work_tree_of(const fs::path& key) {
  std::error_code ec;
  fs::path dir = fs::absolute(key, ec).parent_path();
  for (; !dir.empty(); dir = dir.parent_path()) {
    if (fs::exists(dir / ".git", ec)) {
      return dir;
    }
    if (dir == dir.root_path()) {
      break;
    }
  }
  return std::nullopt;
}

// A private key inside a git work tree is refused unless git ignores it (or --in-tree).
Status check_outside_work_tree(const fs::path& key) {
  const auto top = work_tree_of(key);
  if (!top) {
    return {};
  }
  const std::string why = key.string() + ": inside the git work tree " + top->string();
  std::error_code ec;
  const fs::path absolute = fs::absolute(key, ec);
  util::ProcessOptions options;
  options.cwd = *top;
  const auto ignored = util::run_process(
      {"git", "check-ignore", "-q", "--no-index", "--", absolute.string()}, options);
  if (ignored && ignored->exit_code == 0) {
    return {};
  }
  const std::string how = ignored && ignored->exit_code == 1
                              ? ", where `git add -A` would commit the private key"
                              : " (git could not say whether it ignores the file)";
  return input_error(why + how +
                     "; write it outside (without -o: ~/.config/envlock/signing.key), " +
                     "list it in .gitignore, or pass --in-tree");
}

Result<ExitCode> run_keygen(const KeygenArgs& args) {
  fs::path key = args.output;
  if (key.empty() && args.node) {
    key = k_node_key_path;
    std::error_code ec;
    fs::create_directories(key.parent_path(), ec);
    if (ec) {
      return env_error(key.parent_path().string() + ": cannot create: " + ec.message());
    }
  } else if (key.empty()) {
    ENVLOCK_TRY_ASSIGN(key, pv::default_key_path());
    std::error_code ec;
    fs::create_directories(key.parent_path(), ec);
    if (ec) {
      return env_error(key.parent_path().string() + ": cannot create: " + ec.message());
    }
    ::chmod(key.parent_path().c_str(), 0700);
  }
  if (!args.in_tree) {
    ENVLOCK_TRY(check_outside_work_tree(key));
  }
  const pv::Overwrite overwrite = args.force ? pv::Overwrite::replace : pv::Overwrite::refuse;
  ENVLOCK_TRY_ASSIGN(const std::string key_id, pv::write_key_pair(key, overwrite));
  std::cout << "wrote " << key.string() << " (private, mode 0600) and "
            << pv::public_key_path(key).string() << "\nkey id " << key_id << "\n";
  if (args.node) {
    const std::string host = this_host();
    std::cout << "node " << host << ": copy " << pv::public_key_path(key).string() << " to " << host
              << ".pub in the folder `envlock chain verify --node-keys` reads; sign "
              << "this node's verdicts with `envlock attest verdict --key " << key.string()
              << "`\n";
  }
  return ExitCode::ok;
}

Runner setup(CLI::App& app) {
  auto args = std::make_shared<KeygenArgs>();
  app.add_option("-o,--output", args->output,
                 "The private key file; the public key is FILE.pub (default: "
                 "~/.config/envlock/signing.key; with --node, /etc/envlock/node.key)")
      ->type_name("FILE");
  app.add_flag("--force", args->force, "Replace existing key files");
  app.add_flag("--node", args->node,
               "A node's own key pair, for its verdicts (default: /etc/envlock/node.key)");
  app.add_flag("--in-tree", args->in_tree,
               "Write the key inside a git work tree although git does not ignore it");
  cmdline::set_footer(app, "envlock keygen", "docs/manual/keygen.md");
  return [args] { return run_keygen(*args); };
}

} // namespace

CommandSpec spec() {
  return {"keygen", "Make an Ed25519 key pair for signing provenance or a node's verdicts", setup};
}

} // namespace envlock::cli::keygen_command
