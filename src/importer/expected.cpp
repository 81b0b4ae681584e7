#include "importer/expected.hpp"

#include "importer/envlock_tool.hpp"
#include "importer/trusted_path.hpp"
#include "provenance/keys.hpp"
#include "provenance/signing.hpp"
#include "util/fs.hpp"
#include "util/strings.hpp"

#include <algorithm>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_envelope_name = "provenance.dsse.json";

// Why an entry of a sqsh_dir may not count under `trust`, if it may not: under a job, a record,
// an image or a folder must be on a trusted path (trusted_path.hpp), or a user could have put it
// there for someone else's job.
std::optional<std::string> distrusted(const fs::path& path, Trust trust) {
  if (trust != Trust::system) {
    return std::nullopt;
  }
  return untrusted_because(path);
}

void read_distributed(const fs::path& dir, const fs::path& path, SqshDirScan& scan, Trust trust) {
  if (auto problem = distrusted(path, trust)) {
    scan.warnings.push_back(*problem + "; record ignored: a user could have planted it");
    return;
  }
  auto result = formats::read_squashfs_result(path);
  if (!result) {
    scan.warnings.push_back(result.error().message + "; record ignored");
    return;
  }
  if (result->file_name.empty() || result->file_name.find('/') != std::string::npos) {
    scan.warnings.push_back(path.string() + ": sqsh.file: not a file name; record ignored");
    return;
  }
  const fs::path sqsh = dir / result->file_name;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(sqsh, ec))) {
    if (auto problem = distrusted(sqsh, trust)) {
      scan.warnings.push_back(*problem + "; the image " + path.string() +
                              " names is ignored: a user could swap it");
      return;
    }
  }
  scan.records.push_back({path, sqsh, *result});
}

// The squashfs results of `dir` and, at depth 0, of its immediate subfolders, in path order.
void scan_folder(const fs::path& dir, SqshDirScan& scan, int depth, Trust trust) {
  std::vector<fs::path> entries = formats::squashfs_results_in(dir);
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(dir, ec)) {
    if (depth == 0 && item.is_directory(ec) && !item.is_symlink(ec)) {
      entries.push_back(item.path());
    } else if (depth == 0 && item.is_symlink(ec) && trust == Trust::system &&
               fs::is_directory(item.path(), ec)) {
      scan.warnings.push_back(item.path().string() +
                              ": a symbolic link; folder ignored: a user could redirect it");
    }
  }
  std::sort(entries.begin(), entries.end());
  for (const auto& path : entries) {
    if (fs::is_directory(fs::symlink_status(path, ec))) {
      if (auto problem = distrusted(path, trust)) {
        scan.warnings.push_back(*problem + "; folder ignored: a user could plant records in it");
        continue;
      }
      scan_folder(path, scan, depth + 1, trust);
    } else {
      read_distributed(dir, path, scan, trust);
    }
  }
}

bool made_like(const formats::SquashfsResult& r, const Pin& pin) {
  return r.manifest_digest == pin.platform_digest &&
         (r.platform.empty() || r.platform == pin.platform) &&
         r.squash_options == pin.settings.squash_options &&
         r.source_date_epoch == pin.settings.source_date_epoch;
}

std::vector<fs::path> envelope_candidates(const fs::path& lock_path) {
  std::vector<fs::path> out = {lock_path.parent_path() / std::string(k_envelope_name)};
  const std::string name = lock_path.filename().string();
  if (name.ends_with(".lock.json")) {
    out.push_back(lock_path.parent_path() /
                  (name.substr(0, name.size() - 10) + "." + std::string(k_envelope_name)));
  }
  return out;
}

// The .sqsh subject of a statement: a subject whose name ends in ".sqsh".
std::string sqsh_subject(const nlohmann::json& statement) {
  for (const auto& subject : statement.value("subject", nlohmann::json::array())) {
    if (subject.is_object() && subject.value("name", "").ends_with(".sqsh")) {
      return subject.value("digest", nlohmann::json::object()).value("sha256", "");
    }
  }
  return {};
}

// The expectation a signed provenance envelope gives for `pin`: it must verify with `key`,
// describe the pin's lock and name the image's digest; its .sqsh subject is the sha256.
Result<Expectation> expectation_from_envelope(std::string_view text, const std::string& origin,
                                              const Pin& pin, const provenance::Key& key,
                                              const ImporterConfig& config) {
  ENVLOCK_TRY_ASSIGN(const auto verified,
                     provenance::verify_envelope(text, origin, key, config.public_key.string()));
  const std::string lock = provenance::statement_lock_sha256(verified.statement);
  if (lock != pin.lock_sha256) {
    return check_failed(origin + ": describes the lock " + lock + ", not " +
                        pin.lock_path.string() + " (" + pin.lock_sha256 + ")");
  }
  ENVLOCK_TRY(provenance::check_subject_digest(verified.statement, pin.image.digest, origin));
  Expectation e;
  e.sha256 = sqsh_subject(verified.statement);
  if (e.sha256.empty()) {
    return check_failed(origin + ": names no .sqsh subject; sign the provenance made with "
                                 "--squashfs-result");
  }
  e.source = origin + " (signed by " + verified.keyid + ")";
  return e;
}

// require_signed: the provenance among the image's attestations in its registry. The first one
// that gives an expectation wins; a check failure lists why none did.
Result<Expectation> from_attestations(const Pin& pin, const ImporterConfig& config,
                                      const provenance::Key& key, const std::string& beside) {
  oci::ImageRef image = pin.image;
  image.tag.clear();
  const std::string none = "no signed provenance for " + pin.lock_path.string() +
                           ": none beside the lock (looked for " + beside + ")";
  ENVLOCK_TRY_ASSIGN(const fs::path tool, envlock_tool());
  ENVLOCK_TRY_ASSIGN(const util::TempDir dir, util::TempDir::create("envlock-provenance"));
  auto fetched = run_attest_fetch(tool, image, dir.path(), config.registry);
  if (!fetched) {
    if (fetched.error().code == ExitCode::failed) {
      return check_failed(none + ", and " + fetched.error().message +
                          "; require_signed is set in " + config.file.string());
    }
    return std::move(fetched).error();
  }
  std::vector<std::string> reasons;
  for (const auto& attestation : *fetched) {
    const std::string origin = image.to_string() + " attestation " + attestation.digest;
    ENVLOCK_TRY_ASSIGN(const std::string text, util::read_file(attestation.file));
    auto e = expectation_from_envelope(text, origin, pin, key, config);
    if (e || e.error().code != ExitCode::failed) {
      return e;
    }
    reasons.push_back(e.error().message);
  }
  return check_failed(none + ", and none of the " + std::to_string(fetched->size()) +
                      " attached to the image holds: " + util::join(reasons, "; "));
}

Result<Expectation> from_provenance(const Pin& pin, const ImporterConfig& config) {
  ENVLOCK_TRY_ASSIGN(const provenance::Key key,
                     provenance::read_key(config.public_key, provenance::KeyHalf::public_key));
  std::vector<std::string> tried;
  for (const auto& candidate : envelope_candidates(pin.lock_path)) {
    if (!util::path_exists(candidate)) {
      tried.push_back(candidate.string());
      continue;
    }
    if (auto problem = distrusted(candidate, config.trust)) {
      return check_failed(*problem + "; the provenance is not read: a user could forge it");
    }
    ENVLOCK_TRY_ASSIGN(const std::string text, util::read_file(candidate));
    return expectation_from_envelope(text, candidate.string(), pin, key, config);
  }
  if (config.require_signed) {
    return from_attestations(pin, config, key, tried.front());
  }
  return check_failed("no signed provenance for " + pin.lock_path.string() + " (looked for " +
                      tried.front() + "); a public key is configured in " + config.file.string());
}

} // namespace

SqshDirScan scan_sqsh_dirs(const std::vector<fs::path>& dirs, Trust trust) {
  SqshDirScan scan;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      scan.warnings.push_back(dir.string() + ": not a folder; sqsh_dirs entry ignored");
      continue;
    }
    scan_folder(dir, scan, 0, trust);
  }
  return scan;
}

Result<Expectation> expectation_for(const Pin& pin, const ImporterConfig& config,
                                    const SqshDirScan& scan) {
  std::optional<Distributed> record;
  for (const auto& item : scan.records) {
    if (made_like(item.result, pin)) {
      // A record whose image is there wins over one without it.
      if (!record || (!util::path_exists(record->sqsh) && util::path_exists(item.sqsh))) {
        record = item;
      }
    }
  }
  if (!config.public_key.empty() && pin.role == "image") {
    ENVLOCK_TRY_ASSIGN(Expectation e, from_provenance(pin, config));
    e.distributed = record;
    return e;
  }
  Expectation e;
  if (record) {
    e.sha256 = record->result.sha256;
    e.size = record->result.size;
    e.source = record->record.string();
    e.distributed = record;
  }
  return e;
}

std::optional<Distributed> record_beside(const fs::path& path) {
  auto found = formats::find_squashfs_result_beside(path);
  if (!found) {
    return std::nullopt;
  }
  return Distributed{found->path, path, std::move(found->result)};
}

} // namespace envlock::importer
