// The registry options shared by every command that talks to a registry (resolve, lock, ...).
#pragma once

#include "oci/registry.hpp"

#include <CLI/CLI.hpp>

namespace envlock::cli {

// Adds --insecure-registry, --ca-file, --registry-timeout, --registry-deadline and
// --registry-attempts to `app`, parsed into `options` (which must outlive the parse), and sets
// options.notice when standard error is a terminal. CLI11 reports bad values (exit 2).
void add_registry_options(CLI::App& app, oci::RegistryOptions& options);

} // namespace envlock::cli
