// `envlock importer get URI` and `envlock importer release`: the Pyxis importer plugin
// (docs/manual/importer.md). get maps the URI to an image a configured lock pins, finds its .sqsh
// among the pre-distributed ones or in the node's cache, or makes it natively (what
// `envlock squashfs` does) into the cache, and checks its sha256 against what is recorded before
// naming it. release ends the job step's use of the images it got.
#pragma once

#include "importer/audit_record.hpp"
#include "importer/config.hpp"
#include "importer/expected.hpp"
#include "importer/holds.hpp"
#include "importer/pins.hpp"
#include "importer/stamp.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace envlock::importer {

// Where a get's .sqsh came from.
enum class Source { distributed, shared, cached, imported, path };

// "pre-distributed", "shared", "cached", "imported" or "given path".
const char* to_string(Source source);

struct Context {
  ImporterConfig config;
  JobStep step;
  uid_t uid = 0;
  // A line for standard error (progress, "warning: ..."); Pyxis shows it when the get fails.
  std::function<void(const std::string&)> note;
  // When set, the get writes what answered it here as it goes (the pin, the .sqsh), so that the
  // audit line says it even when the get fails later.
  AuditEntry* audit = nullptr;
};

struct GetOutcome {
  std::filesystem::path sqsh; // absolute
  Source source = Source::cached;
  std::string sha256; // the .sqsh's, as checked
  Checked checked = Checked::hashed;
};

// The whole get. Check failures (exit 1): an image no lock pins under policy refuse, a .sqsh
// whose sha256 differs from the record (the cached file is quarantined first); input errors
// (exit 2): a bad URI, configuration or lock; environment errors (exit 3): the registry, the
// cache folder, a lock wait that timed out.
Result<GetOutcome> get(const Context& context, std::string_view uri);

// The sqsh_dirs a get may trust: all of them for a configuration run by hand; under a job, those
// on a trusted path (trusted_path.hpp), each other one skipped with a warning.
std::vector<std::filesystem::path> usable_sqsh_dirs(const Context& context);

// The sqsh_dirs scanned (expected.hpp) as the configuration's trust says: under a job, only
// records and images on a trusted path count; their warnings are noted.
SqshDirScan scan_usable_sqsh_dirs(const Context& context);

// What `pin`'s .sqsh must be (expected.hpp), from the usable sqsh_dirs; their warnings are noted.
Result<Expectation> expectation_of(const Context& context, const Pin& pin);

// Tells the audit line (when there is one) which pin answered.
void note_pin(const Context& context, const Pin& pin);

// Removes the job step's holds (and import folders of processes that died); fine to call twice
// or when there is nothing to release. Returns how many holds it removed.
Result<int> release(const Context& context);

} // namespace envlock::importer
