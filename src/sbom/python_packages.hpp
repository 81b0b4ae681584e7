// The Python side of the SBOM: every distribution installed in the environment the verifier
// finds (verify/probes/python_env.hpp), in each of its site folders, matched to uv.lock: the
// locked version and source, and the sha256 of the wheel that was installed, chosen by the tags
// the installed WHEEL file lists. Installed distributions the lock lacks, and locked packages not
// installed, are said so (a component property, a document property), never left out.
#pragma once

#include "lock/lock.hpp"
#include "sbom/bom.hpp"
#include "uv/artifacts.hpp"
#include "verify/run_context.hpp"

#include <vector>

namespace envlock::sbom {

struct PythonPart {
  std::vector<Component> components; // one per installed distribution
  std::vector<Property> properties;  // the environment, and each locked package not installed
};

// Whether there is a lock to compare the distributions with.
enum class LockGiven { yes, no };

// Reads the distributions through `context` (inside its root). `locked` are the lock's uv.lock
// packages; `artifacts` uv.lock's files. With LockGiven::no nothing is compared.
PythonPart python_packages(const verify::RunContext& context,
                           const std::vector<lock::UvPackage>& locked,
                           const std::vector<uv::PackageArtifacts>& artifacts,
                           LockGiven lock_given);

} // namespace envlock::sbom
