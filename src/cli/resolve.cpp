// envlock resolve IMAGE: what a tag points to, and the manifest for one platform.
#include "cli/commands.hpp"
#include "cli/registry_options.hpp"
#include "cmdline/help.hpp"
#include "cmdline/output.hpp"
#include "oci/image_ref.hpp"
#include "oci/platform.hpp"
#include "oci/registry.hpp"
#include "util/json.hpp"

#include <memory>

namespace envlock::cli::resolve_command {

namespace {

struct ResolveArgs {
  std::string image;
  std::string platform = oci::k_default_platform;
  std::string format; // text or json; empty: by -o's extension, else text
  std::string output; // empty: standard output
  oci::RegistryOptions registry;
};

Result<ExitCode> run_resolve(const ResolveArgs& args) {
  ENVLOCK_TRY_ASSIGN(const oci::ImageRef image, oci::parse_image_ref(args.image));
  oci::RegistryClient client(args.registry);
  ENVLOCK_TRY_ASSIGN(const oci::Resolved resolved, client.resolve(image, args.platform));
  const std::string format =
      !args.format.empty()
          ? args.format
          : cmdline::format_for_extension(args.output, {"text", "json"}).value_or("text");
  std::string text;
  if (format == "json") {
    nlohmann::json out = {{"image", image.to_string()},
                          {"digest", resolved.digest},
                          {"media_type", resolved.media_type},
                          {"platform", args.platform},
                          {"platform_digest", resolved.platform_digest}};
    text = util::canonical_json(out);
  } else {
    text = "image: " + image.to_string() + "\ndigest: " + resolved.digest +
           "\nmedia_type: " + resolved.media_type + "\nplatform: " + args.platform +
           "\nplatform_digest: " + resolved.platform_digest + "\n";
  }
  ENVLOCK_TRY(cmdline::write_output(args.output, text));
  return ExitCode::ok;
}

} // namespace

CommandSpec spec() {
  return {
      "resolve",
      "Print the digest an image reference points to, and its manifest for one platform",
      [](CLI::App& app) -> Runner {
        auto args = std::make_shared<ResolveArgs>();
        app.add_option("image", args->image,
                       "Image reference, e.g. nvcr.io/nvidia/pytorch:24.05-py3")
            ->required();
        app.add_option("--platform", args->platform, "OS/ARCH[/VARIANT] (default linux/amd64)")
            ->type_name("PLATFORM");
        cmdline::add_format_option(app, args->format, {"text", "json"},
                                   "default: by -o's extension, else text; json is canonical");
        cmdline::add_output_option(app, args->output,
                                   "Write the answer here; - for standard output (default: "
                                   "standard output)");
        cmdline::add_old_flag(app, "--json", "--format json", [args] { args->format = "json"; });
        add_registry_options(app, args->registry);
        cmdline::set_footer(app, "envlock resolve nvcr.io/nvidia/pytorch:26.06-py3 --format json",
                            "docs/manual/resolve.md");
        return [args] { return run_resolve(*args); };
      },
  };
}

} // namespace envlock::cli::resolve_command
