// envlock squashfs: the Enroot image of a pinned image, its checksum and its tree digest
// (docs/manual/squashfs.md). Subcommands: `digest` (tree digest of a folder or .sqsh) and
// `verify` (offline check of a .sqsh against squashfs-result.json or the lock).
#include "cli/commands.hpp"
#include "cli/registry_options.hpp"
#include "cli/source_date_epoch.hpp"
#include "cli/status_stream.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "formats/build_result.hpp"
#include "formats/squashfs_result.hpp"
#include "lock/lock.hpp"
#include "oci/image_ref.hpp"
#include "oci/platform.hpp"
#include "squashfs/enroot_import.hpp"
#include "squashfs/pipeline.hpp"
#include "squashfs/registry_source.hpp"
#include "squashfs/sqsh_verify.hpp"
#include "squashfs/tree_digest.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace envlock::cli::squashfs_command {

namespace {

namespace fs = std::filesystem;
namespace sq = envlock::squashfs;

constexpr const char* k_default_lock = "envlock.lock.json";

struct SquashArgs {
  std::string lock;
  std::string image;
  std::string oci_layout;
  std::string platform;
  std::string output;
  std::string result;
  std::string squash_options;
  std::optional<std::int64_t> source_date_epoch;
  std::string locale;       // empty: the lock's, else C.UTF-8
  std::string build_result; // build-result.json naming the image
  bool enroot = false;
  oci::RegistryOptions registry;
};

// --build-result FILE: the image `envlock build --push` recorded, by reference and digest.
Status image_from_build_result(SquashArgs& args) {
  if (!args.image.empty() || !args.oci_layout.empty()) {
    return input_error("--build-result names the image; leave out --image and --oci-layout");
  }
  ENVLOCK_TRY_ASSIGN(const formats::BuildResult build,
                     formats::read_build_result(args.build_result));
  if (!build.pushed) {
    return input_error(args.build_result + ": the image was not pushed, so " + build.digest +
                       " is a local image id, not a registry digest; run `envlock build --push`, "
                       "or give --image REF@DIGEST");
  }
  if (!args.lock.empty()) {
    ENVLOCK_TRY_ASSIGN(const lock::Lock lock, lock::read_lock(args.lock));
    if (const std::string sha = lock::lock_sha256(lock); sha != build.lock_sha256) {
      return input_error(args.build_result + ": built from another lock (lock_sha256 " +
                         build.lock_sha256 + "), not from " + args.lock + " (" + sha + ")");
    }
  }
  args.image = build.reference();
  return {};
}

// With a lock and no image named: the image `envlock build --push` built from this lock, when
// the build result beside the lock records one, else the lock's base image. Says which.
Status default_image(SquashArgs& args, const lock::Lock& lock) {
  const auto candidates = formats::build_result_candidates(args.lock);
  const auto found = std::find_if(candidates.begin(), candidates.end(),
                                  [](const fs::path& path) { return util::path_exists(path); });
  const fs::path build_result = found == candidates.end() ? candidates.front() : *found;
  const std::string base = lock.base_image.name + "@" + lock.base_image.platform_digest;
  if (found == candidates.end()) {
    args.image = base;
    std::cerr << "envlock: no --image given and no " << build_result.string()
              << "; squashing the lock's base image " << base << "\n";
    return {};
  }
  ENVLOCK_TRY_ASSIGN(const formats::BuildResult build, formats::read_build_result(build_result));
  if (build.lock_sha256 != lock::lock_sha256(lock)) {
    args.image = base;
    std::cerr << "envlock: " << build_result.string() << " was built from another lock; "
              << "squashing the lock's base image " << base << "\n";
    return {};
  }
  if (!build.pushed) {
    return input_error(build_result.string() + ": the image built from " + args.lock +
                       " was not pushed, so it has no registry digest; run `envlock build "
                       "--push`, or name the image with --image REF@DIGEST");
  }
  args.image = build.reference();
  std::cerr << "envlock: squashing the image built from " << args.lock << ", " << args.image << " ("
            << build_result.string() << ")\n";
  return {};
}

// Settings and image from --lock (envlock.lock.json in this folder when there is one and no
// image is named), the options, or Enroot's defaults.
Status settle(SquashArgs& args, sq::SquashSettings& settings) {
  ENVLOCK_TRY_ASSIGN(const auto epoch, source_date_epoch_override(args.source_date_epoch));
  const bool image_named =
      !args.image.empty() || !args.oci_layout.empty() || !args.build_result.empty();
  if (args.lock.empty() && !image_named && util::path_exists(k_default_lock)) {
    args.lock = k_default_lock;
  }
  if (!args.build_result.empty()) {
    ENVLOCK_TRY(image_from_build_result(args));
  }
  std::optional<std::int64_t> lock_epoch;
  if (!args.lock.empty()) {
    ENVLOCK_TRY_ASSIGN(const lock::Lock lock, lock::read_lock(args.lock));
    settings.squash_options = lock.enroot.squash_options;
    settings.source_date_epoch = lock.enroot.source_date_epoch;
    settings.locale = lock.enroot.locale;
    lock_epoch = lock.enroot.source_date_epoch;
    if (args.platform.empty()) {
      args.platform = lock.base_image.platform;
    }
    if (!image_named) {
      ENVLOCK_TRY(default_image(args, lock));
    }
  }
  // Every option missing is named at once, not one per run.
  std::vector<std::string> missing;
  if (args.output.empty()) {
    missing.emplace_back("-o IMAGE.sqsh is required");
  }
  if (args.image.empty() && args.oci_layout.empty()) {
    missing.emplace_back("--image REF@DIGEST is required unless --lock, --oci-layout or "
                         "--build-result is given");
  }
  if (args.lock.empty() && !epoch) {
    missing.emplace_back("--source-date-epoch (or SOURCE_DATE_EPOCH in the environment) is "
                         "required without --lock (Enroot's output is only reproducible with "
                         "SOURCE_DATE_EPOCH)");
  }
  if (!missing.empty()) {
    return input_error(util::join(missing, "; "));
  }
  if (epoch) {
    settings.source_date_epoch = epoch->value;
    if (const std::string note = epoch_note(epoch, lock_epoch); !note.empty()) {
      std::cerr << note << "\n";
    }
  }
  if (!args.locale.empty()) {
    const auto locale = lock::parse_enroot_locale(args.locale);
    if (!locale) {
      return input_error("--locale '" + args.locale + "' is not one of C.UTF-8, C");
    }
    settings.locale = *locale;
  }
  if (!args.squash_options.empty()) {
    settings.squash_options = args.squash_options;
  }
  if (settings.squash_options.empty()) {
    settings.squash_options = lock::k_enroot_squash_options;
  }
  if (args.platform.empty()) {
    args.platform = oci::k_default_platform;
  }
  return {};
}

Result<ExitCode> run_with_enroot(const SquashArgs& args, const sq::SquashSettings& settings,
                                 const fs::path& result_path) {
  if (!args.oci_layout.empty()) {
    return input_error("--enroot imports from a registry; it cannot read --oci-layout");
  }
  ENVLOCK_TRY_ASSIGN(const oci::ImageRef image, oci::parse_image_ref(args.image));
  ENVLOCK_TRY_ASSIGN(const formats::SquashfsResult r,
                     sq::import_with_enroot(image, args.platform, args.output, settings));
  ENVLOCK_TRY(formats::write_squashfs_result(result_path, r));
  status_stream({args.output}) << "wrote " << args.output << " (sha256 " << r.sha256 << ", "
                               << r.size << " bytes) with enroot\n";
  return ExitCode::ok;
}

Result<ExitCode> run_squashfs(SquashArgs args) {
  sq::SquashSettings settings;
  ENVLOCK_TRY(settle(args, settings));
  const fs::path output = args.output;
  ENVLOCK_TRY_ASSIGN(const util::OutputTarget target, util::output_target(output));
  if (target.kind == util::OutputTarget::Kind::stream && args.result.empty()) {
    return input_error("-o " + args.output +
                       ": not a file, so no result can be written beside it; give --result FILE");
  }
  const fs::path result_path =
      args.result.empty() ? formats::squashfs_result_path_for(output) : fs::path(args.result);
  ENVLOCK_TRY_ASSIGN(const util::OutputTarget result_target, util::output_target(result_path));
  if (target.inherited_fd >= 0 && target.inherited_fd == result_target.inherited_fd) {
    return input_error("-o " + args.output + " and --result " + args.result +
                       " name one stream; the image and its result need one each");
  }
  if (args.enroot) {
    return run_with_enroot(args, settings, result_path);
  }
  std::unique_ptr<sq::BlobSource> source;
  std::string reference;
  if (!args.oci_layout.empty()) {
    source = sq::make_layout_source(args.oci_layout, args.image);
    reference = "oci:" + fs::path(args.oci_layout).filename().string() +
                (args.image.empty() ? "" : ":" + args.image);
  } else {
    ENVLOCK_TRY_ASSIGN(const oci::ImageRef image, oci::parse_image_ref(args.image));
    if (image.digest.empty()) {
      return input_error("--image '" + args.image +
                         "' has no digest; give REF@sha256:... so the image is pinned "
                         "(`envlock resolve " +
                         args.image + "` prints the digest it points to now)");
    }
    reference = image.to_string();
    ENVLOCK_TRY_ASSIGN(source, sq::make_registry_source(image, args.registry));
  }
  sq::SquashJob job;
  job.source = source.get();
  job.image_reference = reference;
  job.platform = args.platform;
  job.settings = settings;
  job.output = output;
  job.result_path = result_path;
  job.progress = sq::progress_mode_for_stderr();
  ENVLOCK_TRY_ASSIGN(const sq::SquashOutcome outcome, sq::squash_image(job));
  for (const auto& warning : outcome.warnings) {
    std::cerr << "envlock: warning: " << warning << "\n";
  }
  const auto& r = outcome.result;
  status_stream({output.string()})
      << "wrote " << output.string() << " (sha256 " << r.sha256 << ", " << r.size << " bytes)\n"
      << "tree digest: " << r.tree_digest << "\n"
      << "result: " << result_path.string() << "\n";
  return ExitCode::ok;
}

struct VerifyArgs {
  std::string image;
  std::string result;
  std::string lock;
  bool tree = false;
  std::string format; // text or json; empty: by -o's extension, else text
  std::string output; // empty: standard output
};

// The result to compare with: --result, else the one beside the image. Without --lock, no result
// is an input error; with --lock, the report says what was not checked.
Status expected_result(const VerifyArgs& args, sq::VerifyRequest& request) {
  if (!args.result.empty()) {
    ENVLOCK_TRY_ASSIGN(request.expected, formats::read_squashfs_result(args.result));
    request.expected_from = args.result;
    return {};
  }
  auto found = formats::find_squashfs_result_beside(args.image);
  if (!found) {
    if (args.lock.empty()) {
      return found.error();
    }
    return {};
  }
  std::cerr << "envlock: comparing with " << found->path.string() << "\n";
  request.expected = found->result;
  request.expected_from = found->path.string();
  return {};
}

Result<ExitCode> run_verify(const VerifyArgs& args) {
  std::error_code ec;
  if (std::filesystem::symlink_status(args.image, ec).type() ==
      std::filesystem::file_type::not_found) {
    return input_error(args.image + ": no such file (the .sqsh to verify)");
  }
  sq::VerifyRequest request;
  request.image = args.image;
  request.tree = args.tree ? sq::TreeCheck::compute : sq::TreeCheck::skip;
  ENVLOCK_TRY(expected_result(args, request));
  if (!args.lock.empty()) {
    ENVLOCK_TRY_ASSIGN(const lock::Lock lock, lock::read_lock(args.lock));
    request.enroot = lock.enroot;
    request.enroot_from = args.lock;
    if (request.enroot->squash_options.empty()) {
      request.enroot->squash_options = lock::k_enroot_squash_options;
    }
  }
  ENVLOCK_TRY_ASSIGN(const sq::VerifyReport report, sq::verify_sqsh(request));
  const std::string format =
      !args.format.empty()
          ? args.format
          : cmdline::format_for_extension(args.output, {"text", "json"}).value_or("text");
  ENVLOCK_TRY(cmdline::write_output(
      args.output, format == "json" ? util::canonical_json(sq::verify_report_json(request, report))
                                    : sq::render_verify_report(request, report)));
  if (!report.mismatches.empty()) {
    return check_failed(args.image + ": " + report.mismatches.front() +
                        (report.mismatches.size() > 1
                             ? " (and " + std::to_string(report.mismatches.size() - 1) + " more)"
                             : ""));
  }
  if (!report.content_compared()) {
    return check_failed(args.image + ": " + sq::k_not_verified + " (" + args.lock +
                        " names no sha256 of the .sqsh; give --result FILE, the " +
                        formats::squashfs_result_path_for(args.image).filename().string() +
                        " `envlock squashfs` wrote)");
  }
  return ExitCode::ok;
}

Result<ExitCode> run_digest(const std::string& path) {
  ENVLOCK_TRY_ASSIGN(const std::string digest, sq::tree_digest_of(path));
  std::cout << digest << "\n";
  return ExitCode::ok;
}

Runner setup_squashfs(CLI::App& app) {
  auto args = std::make_shared<SquashArgs>();
  app.add_option("--lock", args->lock,
                 "Lock file: Enroot options and the default image (default: envlock.lock.json "
                 "when no image is named and it exists)")
      ->type_name("FILE");
  app.add_option("--image", args->image,
                 "Image to squash, REF@DIGEST (with --oci-layout: its tag or digest; default: "
                 "the image build-result.json beside the lock records, else the lock's base "
                 "image)")
      ->type_name("IMAGE");
  app.add_option("--oci-layout", args->oci_layout, "Read the image from an OCI layout folder")
      ->type_name("DIR");
  app.add_option("--platform", args->platform,
                 "OS/ARCH[/VARIANT] (default: the lock's, "
                 "else linux/amd64)")
      ->type_name("PLATFORM");
  app.add_option("-o,--output", args->output, "The .sqsh to write")->type_name("FILE");
  app.add_option("--result", args->result,
                 "Where to write the result (default: NAME.squashfs-result.json beside NAME.sqsh)")
      ->type_name("FILE");
  app.add_option("--squash-options", args->squash_options,
                 "mksquashfs options (default: the lock's, else Enroot's '-comp lzo -noD "
                 "-exit-on-error')")
      ->type_name("OPTIONS");
  add_source_date_epoch_option(app, args->source_date_epoch,
                               "Timestamp of every inode and of the image (default: "
                               "SOURCE_DATE_EPOCH, else the lock's; required without --lock)");
  app.add_option("--locale", args->locale,
                 "The locale Enroot's bash writes /etc/rc in: C.UTF-8 or C (default: the "
                 "lock's, else C.UTF-8)")
      ->type_name("LOCALE");
  app.add_option("--build-result", args->build_result,
                 "Squash the image `envlock build --push` recorded in this build-result.json")
      ->type_name("FILE");
  app.add_flag("--enroot", args->enroot, "Run the installed `enroot import` instead");
  add_registry_options(app, args->registry);
  cmdline::set_footer(app, "envlock squashfs --lock envlock.lock.json -o image.sqsh",
                      "docs/manual/squashfs.md");
  return [args] { return run_squashfs(*args); };
}

Runner setup_digest(CLI::App& app) {
  auto path = std::make_shared<std::string>();
  app.add_option("path", *path, "Folder or .sqsh")->required();
  cmdline::set_footer(app, "envlock squashfs digest image.sqsh", "docs/manual/squashfs.md");
  return [path] { return run_digest(*path); };
}

Runner setup_verify(CLI::App& app) {
  auto args = std::make_shared<VerifyArgs>();
  app.add_option("image", args->image, "The .sqsh")->required();
  app.add_option("--result", args->result,
                 "The result to compare with (default: NAME.squashfs-result.json, else "
                 "squashfs-result.json, beside NAME.sqsh)")
      ->type_name("FILE");
  app.add_option("--lock", args->lock,
                 "Also compare the mkfs time and compression with this lock's Enroot settings "
                 "(they do not identify the content)")
      ->type_name("FILE");
  app.add_flag("--tree", args->tree, "Also recompute the tree digest");
  cmdline::add_format_option(app, args->format, {"text", "json"},
                             "default: by -o's extension, else text; json is canonical");
  cmdline::add_output_option(app, args->output,
                             "Write the report here; - for standard output (default: standard "
                             "output)");
  cmdline::set_footer(app, "envlock squashfs verify image.sqsh", "docs/manual/squashfs.md");
  return [args] { return run_verify(*args); };
}

} // namespace

CommandSpec spec() {
  return {
      "squashfs",
      "Make the Enroot .sqsh of a pinned image, with its checksum and tree digest",
      setup_squashfs,
      {
          {"digest", "Print the tree digest of a folder or .sqsh", setup_digest},
          {"verify", "Check a .sqsh offline", setup_verify},
      },
  };
}

} // namespace envlock::cli::squashfs_command
