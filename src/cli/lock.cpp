// `envlock lock`: resolves the manifest into envlock.lock.json; `--check` reports drift
// (docs/manual/lock.md).
#include "build/recipe.hpp"
#include "cli/commands.hpp"
#include "cli/project_files.hpp"
#include "cli/registry_options.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "formats/schemas.hpp"
#include "manifest/manifest.hpp"
#include "oci/registry.hpp"
#include "resolve/drift.hpp"
#include "resolve/resolve.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <unistd.h>

namespace envlock::cli::lock_command {

namespace {

struct LockOptions {
  std::string manifest = "envlock.yaml";
  std::string output; // empty: envlock.lock.json beside the manifest
  bool check = false;
  bool refresh = false;
  std::string megatron_repo; // empty: sources.megatron.git when it is a local path
  std::string format;        // with --check: text (default) or json
  oci::RegistryOptions registry;
};

std::filesystem::path lock_path(const LockOptions& options) {
  if (!options.output.empty()) {
    return options.output;
  }
  return std::filesystem::path(options.manifest).parent_path() / "envlock.lock.json";
}

// The registry client is made on first use, so `--check` alone never opens a connection.
resolve::ImageResolver make_resolver(const oci::RegistryOptions& options) {
  auto client = std::make_shared<std::unique_ptr<oci::RegistryClient>>();
  return [client, options](const oci::ImageRef& image, std::string_view platform) {
    if (!*client) {
      *client = std::make_unique<oci::RegistryClient>(options);
    }
    return (*client)->resolve(image, platform);
  };
}

std::optional<std::filesystem::path> megatron_repo(const LockOptions& options) {
  if (options.megatron_repo.empty()) {
    return std::nullopt;
  }
  return std::filesystem::path(options.megatron_repo);
}

// "hashing data/x.bin: 1.2 of 9.8 GiB" on standard error, rewritten in place, when standard
// error is a terminal; nothing otherwise. Shown at most every 64 MiB and cleared at the end.
class HashProgressLine {
public:
  HashProgressLine() : m_terminal(::isatty(STDERR_FILENO) != 0) {}
  HashProgressLine(const HashProgressLine&) = delete;
  HashProgressLine& operator=(const HashProgressLine&) = delete;
  ~HashProgressLine() {
    if (m_shown) {
      std::cerr << "\r\033[K" << std::flush;
    }
  }

  [[nodiscard]] resolve::FileProgress callback() {
    if (!m_terminal) {
      return {};
    }
    return [this](const std::string& path, std::uint64_t hashed, std::uint64_t size) {
      constexpr std::uint64_t k_step = std::uint64_t{64} << 20U;
      if (path == m_path && hashed < m_next && hashed < size) {
        return;
      }
      m_path = path;
      m_next = hashed + k_step;
      // The unit of the file's size, so that a small file does not read "0.0 of 0.0 GiB".
      const char* unit = "GiB";
      double scale = 1024.0 * 1024.0 * 1024.0;
      if (size < (std::uint64_t{1} << 20U)) {
        unit = "KiB";
        scale = 1024.0;
      } else if (size < (std::uint64_t{1} << 30U)) {
        unit = "MiB";
        scale = 1024.0 * 1024.0;
      }
      char line[64];
      if (size < 1024) {
        (void)std::snprintf(line, sizeof line, ": %llu of %llu bytes",
                            static_cast<unsigned long long>(hashed),
                            static_cast<unsigned long long>(size));
      } else {
        (void)std::snprintf(line, sizeof line, ": %.1f of %.1f %s",
                            static_cast<double>(hashed) / scale, static_cast<double>(size) / scale,
                            unit);
      }
      std::cerr << "\r\033[Khashing " << path << line << std::flush;
      m_shown = true;
    };
  }

private:
  bool m_terminal;
  bool m_shown = false;
  std::string m_path;
  std::uint64_t m_next = 0;
};

std::string short_digest(const std::string& digest) {
  return digest.substr(0, 19); // "sha256:" and 12 hex digits
}

Result<ExitCode> run_write(const manifest::Manifest& manifest, const LockOptions& options) {
  const auto path = lock_path(options);
  if (options.output.empty()) {
    ENVLOCK_TRY(util::check_default_output(path, "-o"));
  }
  std::optional<HashProgressLine> progress(std::in_place);
  ENVLOCK_TRY_ASSIGN(const lock::Lock result,
                     resolve::resolve_lock(manifest, path, make_resolver(options.registry),
                                           megatron_repo(options), progress->callback()));
  progress.reset();
  ENVLOCK_TRY(lock::write_lock(path, result));
  std::cout << "locked " << path.string() << "\n";
  std::cout << "  base image " << result.base_image.name << ":" << result.base_image.tag << " @ "
            << short_digest(result.base_image.digest) << "\n";
  for (const auto& [name, pin] : result.sources) {
    std::cout << "  source " << name << " " << pin.ref << " @ " << pin.commit.substr(0, 12) << "\n";
  }
  const auto& recipe = result.recipe;
  if (recipe) {
    std::cout << "  recipe " << recipe->path << " (target " << recipe->target
              << "): " << recipe->images.size()
              << (recipe->images.size() == 1 ? " image" : " images") << " pinned\n";
    const auto& base = result.base_image;
    const bool named =
        std::any_of(recipe->images.begin(), recipe->images.end(),
                    [&](const lock::RecipeImage& i) { return i.digest == base.digest; });
    if (!named) {
      std::cerr << "envlock: warning: base.image (" << base.reference
                << ") is none of the images the recipe's FROM lines name; labels and provenance "
                   "will still name it as the base image\n";
    }
  }
  std::cout << "  " << result.python.uv_lock.path << ": " << result.python.uv_lock.packages.size()
            << " packages\n";
  if (result.training) {
    const auto files = lock::training_files(*result.training);
    std::uint64_t bytes = 0;
    for (const auto& [field, file] : files) {
      bytes += static_cast<std::uint64_t>(file->size);
    }
    std::cout << "  training: " << files.size() << (files.size() == 1 ? " file, " : " files, ")
              << bytes << " bytes hashed\n";
  }
  return ExitCode::ok;
}

// One drift line, "drift: FIELD: WHAT", as {"field": FIELD, "message": WHAT}.
nlohmann::json drift_json(const std::string& line) {
  const std::string prefix = "drift: ";
  std::string rest = line.starts_with(prefix) ? line.substr(prefix.size()) : line;
  const auto colon = rest.find(": ");
  if (colon == std::string::npos) {
    return {{"field", rest}, {"message", ""}};
  }
  return {{"field", rest.substr(0, colon)}, {"message", rest.substr(colon + 2)}};
}

nlohmann::json packages_json(const std::vector<lock::UvPackage>& packages) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : packages) {
    out.push_back(
        {{"version", p.version},
         {"source", p.source_kind + (p.source_location.empty() ? "" : " " + p.source_location)}});
  }
  return out;
}

// `lock --check --format json`: the drifts and the uv.lock packages that moved, for CI.
std::string check_json(const resolve::DriftReport& report, const std::filesystem::path& path,
                       const LockOptions& options) {
  nlohmann::json drifts = nlohmann::json::array();
  for (const auto& line : report.lines) {
    drifts.push_back(drift_json(line));
  }
  nlohmann::json packages = nlohmann::json::array();
  for (const auto& move : report.packages) {
    packages.push_back({{"name", move.name},
                        {"kind", move.kind},
                        {"lock", packages_json(move.in_lock)},
                        {"uv_lock", packages_json(move.in_file)}});
  }
  return util::canonical_json({{"schema", formats::k_lock_check_schema},
                               {"lock", path.generic_string()},
                               {"manifest", options.manifest},
                               {"matches", report.lines.empty()},
                               {"drifts", drifts},
                               {"packages", packages}}) +
         "\n";
}

Result<ExitCode> run_check(const manifest::Manifest& manifest, const LockOptions& options) {
  const auto path = lock_path(options);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    return input_error(path.string() + ": no such lock; run 'envlock lock' to create it");
  }
  ENVLOCK_TRY_ASSIGN(const lock::Lock existing, lock::read_lock(path));
  ENVLOCK_TRY(lock::check_pins(existing, path.string()));
  const auto refresh =
      options.refresh ? resolve::Refresh::remote_refs : resolve::Refresh::local_only;
  std::optional<HashProgressLine> progress(std::in_place);
  ENVLOCK_TRY_ASSIGN(const resolve::DriftReport report,
                     resolve::find_drift_report(manifest, existing, path, refresh,
                                                make_resolver(options.registry),
                                                megatron_repo(options), progress->callback()));
  progress.reset();
  const auto& drifts = report.lines;
  if (options.format == "json") {
    std::cout << check_json(report, path, options);
    return drifts.empty() ? ExitCode::ok : ExitCode::failed;
  }
  for (const auto& line : drifts) {
    std::cout << line << "\n";
  }
  if (!drifts.empty()) {
    std::cout << path.string() << " is out of date (" << drifts.size()
              << (drifts.size() == 1 ? " drift" : " drifts") << "); run 'envlock lock'\n";
    return ExitCode::failed;
  }
  std::cout << path.string() << " matches " << options.manifest << "\n";
  return ExitCode::ok;
}

Result<ExitCode> run_lock(const LockOptions& options) {
  if (options.refresh && !options.check) {
    return input_error("--refresh needs --check");
  }
  if (!options.format.empty() && !options.check) {
    return input_error("--format needs --check (envlock lock writes only the lock)");
  }
  ENVLOCK_TRY_ASSIGN(const manifest::Manifest manifest, manifest::load_manifest(options.manifest));
  if (options.check) {
    return run_check(manifest, options);
  }
  return run_write(manifest, options);
}

Runner setup(CLI::App& app) {
  auto options = std::make_shared<LockOptions>();
  const CLI::Option* manifest =
      app.add_option("-f,--file", options->manifest,
                     "The manifest (default: envlock.yaml, here or in a folder above)")
          ->type_name("FILE");
  app.add_option("-o,--output", options->output,
                 "The lock to write or check (default: envlock.lock.json beside the manifest)")
      ->type_name("FILE");
  app.add_flag("--check", options->check,
               "Do not write: exit 1 naming each field where the lock and the manifest differ");
  app.add_flag("--refresh", options->refresh,
               "With --check: also resolve the base image's tag and the git refs again");
  cmdline::add_format_option(app, options->format, {"text", "json"}, "with --check; default: text");
  app.add_option("--megatron-repo", options->megatron_repo,
                 "A local clone holding sources.megatron's commit, for an upstream recipe of a "
                 "remote repository")
      ->type_name("DIR");
  add_registry_options(app, options->registry);
  cmdline::set_footer(app, "envlock lock --check", "docs/manual/lock.md");
  return [options, manifest]() -> Result<ExitCode> {
    find_in_parents(manifest, options->manifest);
    std::error_code ec;
    if (manifest->count() == 0 && !std::filesystem::exists(options->manifest, ec)) {
      return input_error("no " + options->manifest + " in " + searched_folders() +
                         "; run envlock in the project's folder, or name the manifest with -f "
                         "FILE");
    }
    return run_lock(*options);
  };
}

} // namespace

CommandSpec spec() {
  return {"lock", "Resolve the manifest into envlock.lock.json (--check: report drift)", setup};
}

} // namespace envlock::cli::lock_command
