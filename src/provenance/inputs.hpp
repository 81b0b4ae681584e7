// Gathers what the provenance statement describes from the files a build leaves: the lock, the
// manifest it records, build-result.json and, optionally, squashfs-result.json, and checks that
// they belong together.
#pragma once

#include "provenance/statement.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace envlock::provenance {

struct InputPaths {
  std::filesystem::path lock;            // envlock.lock.json
  std::filesystem::path build_result;    // empty: build-result.json in the lock's folder
  std::filesystem::path squashfs_result; // empty: no .sqsh subject
};

struct GatheredInputs {
  ProvenanceInputs inputs;
  std::vector<std::string> warnings; // for standard error
};

// Reads and cross-checks the inputs. Input errors (exit 2): a file is missing or malformed (the
// build result: "…; run `envlock build` first or pass --build-result FILE"), the manifest changed
// since the lock was written, the build result names another lock, the saved build log does not
// match its recorded sha256, or the .sqsh was made from another image than the one built.
Result<GatheredInputs> gather_inputs(const InputPaths& paths, const std::string& envlock_version);

} // namespace envlock::provenance
