// `envlock build`: renders the Dockerfile, writes the build context (context.hpp), runs the
// builder on it with the lock's SOURCE_DATE_EPOCH, optionally pushes, and records everything in
// build-result.json (formats/build_result.hpp). docs/manual/build.md describes the steps.
#pragma once

#include "build/builder.hpp"
#include "build/context.hpp"
#include "formats/build_result.hpp"
#include "oci/credentials.hpp"
#include "util/result.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::build {

struct BuildRequest {
  ContextRequest context;
  BuilderKind builder = BuilderKind::buildah;
  Push push = Push::no;
  std::string isolation = "chroot";
  std::vector<std::string> insecure_registries; // HOST[:PORT] reached without TLS verification
  oci::CredentialFiles credentials; // where envlock's registry credentials are (empty: defaults)
  std::optional<std::filesystem::path> result_path; // empty: build-result.json beside the lock
  // Receives the build log as it is written (the terminal); may be empty.
  std::function<void(std::string_view)> on_log;
};

// Builds (and with Push::yes pushes) the image of the lock and writes build-result.json and the
// build log beside it, named after the result (log_file_for), so results in one folder keep
// their own logs. Returns the result written. Fails (exit 2) like prepare_context or when the
// lock has no image.repository or image.tag; (exit 3) with "NAME: not found in PATH; install
// NAME, or choose another builder with --builder buildah|docker|podman", with "NAME build failed
// (exit N); the log is in LOG" (the log is kept), or when the builder gives no digest.
Result<formats::BuildResult> run_build(const BuildRequest& request);

// The build log of the result file `result_path`: its name with ".json" replaced by ".log"
// (build-result.json -> build-result.log; a.json -> a.log; x -> x.log), in the same folder.
std::filesystem::path log_file_for(const std::filesystem::path& result_path);

// The path of the result file: `result_path`, or build-result.json in the lock's folder.
std::filesystem::path result_file(const BuildRequest& request);

} // namespace envlock::build
