#include "cli/registry_options.hpp"

#include <iostream>
#include <unistd.h>

namespace envlock::cli {

void add_registry_options(CLI::App& app, oci::RegistryOptions& options) {
  if (::isatty(STDERR_FILENO) != 0) {
    // On a terminal, say what a request waits for and each retry; the line clears a progress
    // line that may stand there.
    options.notice = [](const std::string& line) {
      std::cerr << "\r\033[Kenvlock: " << line << "\n" << std::flush;
    };
  }
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
  app.add_option_function<double>(
         "--registry-deadline",
         [&options](double seconds) {
           options.deadline = std::chrono::milliseconds(static_cast<long>(seconds * 1000));
         },
         "Give up on a registry request not done in this long, however it trickles (seconds; "
         "default 300, a blob one more per MiB)")
      ->check(CLI::Range(1.0, 86400.0))
      ->type_name("SECONDS");
  app.add_option("--registry-attempts", options.max_attempts,
                 "Attempts per registry request for retryable failures (default 4)")
      ->check(CLI::Range(1, 20))
      ->type_name("N");
}

} // namespace envlock::cli
