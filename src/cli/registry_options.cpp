#include "cli/registry_options.hpp"

namespace envlock::cli {

void add_registry_options(CLI::App& app, oci::RegistryOptions& options) {
  app.add_option("--insecure-registry", options.insecure_registries,
                 "Use plain HTTP for this registry (HOST or HOST:PORT; repeatable)")
      ->type_name("HOST[:PORT]");
  app.add_option("--ca-file", options.ca_file,
                 "Trust the CA certificates in this PEM file, in addition to the system's")
      ->check(CLI::ExistingFile)
      ->type_name("FILE");
  app.add_option_function<double>(
         "--registry-timeout",
         [&options](double seconds) {
           options.timeout = std::chrono::milliseconds(static_cast<long>(seconds * 1000));
         },
         "Give up on a registry request that stalls this long (seconds; default 30)")
      ->check(CLI::Range(1.0, 3600.0))
      ->type_name("SECONDS");
  app.add_option("--registry-attempts", options.max_attempts,
                 "Attempts per registry request for retryable failures (default 4)")
      ->check(CLI::Range(1, 20))
      ->type_name("N");
}

} // namespace envlock::cli
