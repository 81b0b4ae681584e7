#include "importer/import_image.hpp"

#include "importer/envlock_tool.hpp"
#include "importer/stamp.hpp"
#include "util/fs.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

// The folder an import is made in: CACHE/tmp/KEY.PID.XXXXXX, so that a later get knows whose it
// is (remove_stale_imports); removed when the import ends, however it ends (short of SIGKILL).
Result<util::TempDir> make_stage(const Cache& cache, const std::string& key) {
  return util::TempDir::create_in(cache.tmp(), key + "." + std::to_string(::getpid()));
}

} // namespace

formats::ImageRecord image_record_for(const Pin& pin, const Expectation& expected,
                                      const std::string& key, const formats::SquashfsResult& r) {
  formats::ImageRecord record;
  record.name = pin.image.name();
  record.tag = pin.image.tag;
  record.digest = pin.image.digest;
  record.manifest_digest = r.manifest_digest;
  record.platform = pin.platform;
  record.lock_path = pin.lock_path.string();
  record.lock_sha256 = pin.lock_sha256;
  record.pin = pin.role;
  record.sqsh_file = key + ".sqsh";
  record.sha256 = r.sha256;
  record.size = r.size;
  record.tree_digest = r.tree_digest;
  record.expected_from = expected.sha256.empty() ? "first import" : expected.source;
  record.squash_options = pin.settings.squash_options;
  record.source_date_epoch = pin.settings.source_date_epoch;
  return record;
}

Result<formats::ImageRecord> import_image(const ImportJob& job) {
  const Cache& cache = *job.cache;
  remove_stale_imports(cache, job.key);
  ENVLOCK_TRY_ASSIGN(const util::TempDir stage, make_stage(cache, job.key));

  oci::ImageRef ref = job.pin.image;
  ref.tag.clear();
  ref.digest = job.pin.platform_digest;
  job.note("importing " + ref.to_string() + " for " + job.pin.platform);
  ENVLOCK_TRY_ASSIGN(const fs::path tool, envlock_tool());
  SquashRequest squash;
  squash.image = ref;
  squash.platform = job.pin.platform;
  squash.settings = job.pin.settings;
  squash.output = stage.path() / (job.key + ".sqsh");
  squash.result = stage.path() / formats::k_squashfs_result_file;
  squash.scratch = stage.path();
  squash.registry = job.registry;
  ENVLOCK_TRY_ASSIGN(const formats::SquashfsResult result,
                     run_squashfs(tool, squash, [&](const std::string& warning) {
                       job.note("warning: " + warning);
                     }));
  const formats::ImageRecord record = image_record_for(job.pin, job.expected, job.key, result);
  if (!job.expected.sha256.empty() && record.sha256 != job.expected.sha256) {
    ENVLOCK_TRY(formats::write_image_record(formats::image_record_path_for(squash.output), record));
    ENVLOCK_TRY_ASSIGN(const fs::path moved, quarantine_image(cache, job.key, squash.output));
    return check_failed(ref.to_string() + ": the imported .sqsh has sha256 " + record.sha256 +
                        ", expected " + job.expected.sha256 + " (from " + job.expected.source +
                        "); quarantined as " + moved.string());
  }
  ENVLOCK_TRY(formats::write_image_record(cache.record(job.key), record));
  const fs::path image = cache.image(job.key);
  if (std::rename(squash.output.c_str(), image.c_str()) != 0) {
    return env_error(image.string() + ": cannot publish: " + std::strerror(errno));
  }
  ENVLOCK_TRY(write_stamp(cache.stamp(image), image, record.sha256));
  return record;
}

} // namespace envlock::importer
