// The files uv.lock records for each package: its source distribution and its wheels, each with
// the sha256 uv checked when it downloaded it (`sdist = { url, hash, size }`, `wheels = [...]`).
// The lock module keeps only names, versions and sources; an SBOM needs the hash of the wheel
// that was installed, so it reads these here (toml++; the file is at most k_uv_lock_limit).
#pragma once

#include "util/result.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::uv {

// One sdist or wheel entry.
struct Artifact {
  std::string location; // url, path or filename, as uv.lock writes it
  std::string filename; // the last part of the location ("six-1.16.0-py2.py3-none-any.whl")
  std::string sha256;   // 64 lowercase hex; empty when uv.lock gives no sha256 hash
  std::optional<std::uint64_t> size;
};

struct PackageArtifacts {
  std::string name;
  std::string version;
  std::optional<Artifact> sdist;
  std::vector<Artifact> wheels; // in file order
};

// Every named [[package]], in file order; a name may come more than once (uv forks by marker).
// Errors (exit 2): "ORIGIN:LINE:COL: REASON" for malformed TOML, "ORIGIN: package 'x': wheels
// must be an array", "ORIGIN: package 'x' wheel: hash 'sha256:zz' is not sha256:<64 hex>".
Result<std::vector<PackageArtifacts>> read_artifacts(std::string_view text,
                                                     std::string_view origin);

// The tags a wheel's file name declares ("{name}-{version}(-{build})?-{py}-{abi}-{platform}.whl",
// each of the last three a '.'-separated set), expanded to "py-abi-platform" triples, sorted.
// Empty when `filename` is not a wheel's name.
std::vector<std::string> wheel_tags(std::string_view filename);

} // namespace envlock::uv
