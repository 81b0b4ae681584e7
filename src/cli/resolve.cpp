// envlock resolve IMAGE: what a tag points to, and the manifest for one platform.
#include "cli/command.hpp"
#include "cli/registry_options.hpp"
#include "oci/image_ref.hpp"
#include "oci/platform.hpp"
#include "oci/registry.hpp"
#include "util/json.hpp"

#include <iostream>
#include <memory>

namespace envlock::cli {

namespace {

struct ResolveArgs {
  std::string image;
  std::string platform = oci::k_default_platform;
  bool json = false;
  oci::RegistryOptions registry;
};

Result<ExitCode> run_resolve(const ResolveArgs& args) {
  ENVLOCK_TRY_ASSIGN(const oci::ImageRef image, oci::parse_image_ref(args.image));
  oci::RegistryClient client(args.registry);
  ENVLOCK_TRY_ASSIGN(const oci::Resolved resolved, client.resolve(image, args.platform));
  if (args.json) {
    nlohmann::json out = {{"image", image.to_string()},
                          {"digest", resolved.digest},
                          {"media_type", resolved.media_type},
                          {"platform", args.platform},
                          {"platform_digest", resolved.platform_digest}};
    std::cout << util::canonical_json(out);
  } else {
    std::cout << "image: " << image.to_string() << "\n"
              << "digest: " << resolved.digest << "\n"
              << "media_type: " << resolved.media_type << "\n"
              << "platform: " << args.platform << "\n"
              << "platform_digest: " << resolved.platform_digest << "\n";
  }
  return ExitCode::ok;
}

const RegisterCommand k_register{{
    "resolve",
    "Print the digest an image reference points to, and its manifest for one platform",
    [](CLI::App& app) -> Runner {
      auto args = std::make_shared<ResolveArgs>();
      app.add_option("image", args->image, "Image reference, e.g. nvcr.io/nvidia/pytorch:24.05-py3")
          ->required();
      app.add_option("--platform", args->platform, "OS/ARCH[/VARIANT] (default linux/amd64)");
      app.add_flag("--json", args->json, "Print canonical JSON");
      add_registry_options(app, args->registry);
      return [args] { return run_resolve(*args); };
    },
}};

} // namespace

} // namespace envlock::cli
