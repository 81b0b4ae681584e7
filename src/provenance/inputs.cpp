#include "provenance/inputs.hpp"

#include "formats/squashfs_result.hpp"
#include "manifest/manifest.hpp"
#include "util/fs.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <system_error>

namespace envlock::provenance {

namespace fs = std::filesystem;

namespace {

// The folder of `path`, empty for a bare file name, so that joined paths print as given.
fs::path parent_of(const fs::path& path) {
  return path.parent_path();
}

// The manifest the lock records, parsed, after checking it is the one the lock was made from.
Result<nlohmann::json> read_manifest(const fs::path& lock_path, const lock::Lock& lock) {
  const fs::path path = parent_of(lock_path) / lock.manifest_path;
  ENVLOCK_TRY_ASSIGN(const std::string text, util::read_file(path));
  const std::string sha256 = util::sha256_hex(text);
  if (sha256 != lock.manifest_sha256) {
    return input_error(path.string() + ": changed since " + lock_path.string() +
                       " was written (sha256 " + sha256 + ", the lock records " +
                       lock.manifest_sha256 + "); run `envlock lock` again");
  }
  ENVLOCK_TRY_ASSIGN(const manifest::Manifest parsed, manifest::parse_manifest(text, path));
  return manifest::to_json(parsed);
}

Result<BuildRecord> read_build(const fs::path& path, const fs::path& lock_path,
                               const lock::Lock& lock) {
  if (!util::path_exists(path)) {
    return input_error(path.string() + ": no such build result; run `envlock build` first or pass "
                                       "--build-result FILE");
  }
  ENVLOCK_TRY_ASSIGN(BuildRecord build, read_build_record(path));
  const std::string lock_sha256 = lock::lock_sha256(lock);
  if (build.lock_sha256 != lock_sha256) {
    return input_error(path.string() + ": built from another lock (lock_sha256 " +
                       build.lock_sha256 + "), not from " + lock_path.string() + " (" +
                       lock_sha256 + ")");
  }
  const fs::path log = parent_of(path) / build.log_path;
  if (util::path_exists(log)) {
    ENVLOCK_TRY_ASSIGN(const std::string log_sha256, util::sha256_file_hex(log));
    if (log_sha256 != build.log_sha256) {
      return input_error(log.string() + ": changed after the build that wrote " + path.string() +
                         " (sha256 " + log_sha256 + ", the result records " + build.log_sha256 +
                         "); restore that build's log, or run `envlock build` again for a new "
                         "result and log");
    }
  }
  return build;
}

Result<FileSubject> read_sqsh(const fs::path& path, const BuildRecord& build) {
  ENVLOCK_TRY_ASSIGN(const formats::SquashfsResult sqsh, formats::read_squashfs_result(path));
  if (sqsh.manifest_digest != build.digest) {
    return input_error(path.string() + ": the .sqsh was made from " + sqsh.manifest_digest +
                       ", not from the built image " + build.digest);
  }
  return FileSubject{sqsh.file_name, sqsh.sha256};
}

} // namespace

Result<GatheredInputs> gather_inputs(const InputPaths& paths, const std::string& envlock_version) {
  GatheredInputs out;
  ProvenanceInputs& in = out.inputs;
  ENVLOCK_TRY_ASSIGN(in.lock, lock::read_lock(paths.lock));
  in.lock_file_name = paths.lock.filename().string();
  in.envlock_version = envlock_version;
  ENVLOCK_TRY_ASSIGN(in.manifest, read_manifest(paths.lock, in.lock));
  const fs::path build_path =
      paths.build_result.empty() ? parent_of(paths.lock) / "build-result.json" : paths.build_result;
  ENVLOCK_TRY_ASSIGN(in.build, read_build(build_path, paths.lock, in.lock));
  if (!in.build.pushed) {
    out.warnings.push_back(build_path.string() +
                           ": the image was not pushed, so the subject digest is its local "
                           "image id, not a registry manifest digest");
  }
  if (!paths.squashfs_result.empty()) {
    ENVLOCK_TRY_ASSIGN(in.sqsh, read_sqsh(paths.squashfs_result, in.build));
  }
  return out;
}

} // namespace envlock::provenance
