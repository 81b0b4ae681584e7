#include "importer/expected.hpp"

#include "provenance/keys.hpp"
#include "provenance/signing.hpp"
#include "util/fs.hpp"

#include <algorithm>

namespace envlock::importer {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view k_envelope_name = "provenance.dsse.json";

void read_distributed(const fs::path& dir, const fs::path& path, SqshDirScan& scan) {
  auto result = formats::read_squashfs_result(path);
  if (!result) {
    scan.warnings.push_back(result.error().message + "; record ignored");
    return;
  }
  if (result->file_name.empty() || result->file_name.find('/') != std::string::npos) {
    scan.warnings.push_back(path.string() + ": sqsh.file: not a file name; record ignored");
    return;
  }
  scan.records.push_back({path, dir / result->file_name, *result});
}

// The squashfs results of `dir` and, at depth 0, of its immediate subfolders, in path order.
void scan_folder(const fs::path& dir, SqshDirScan& scan, int depth) {
  std::vector<fs::path> entries = formats::squashfs_results_in(dir);
  std::error_code ec;
  for (const auto& item : fs::directory_iterator(dir, ec)) {
    if (depth == 0 && item.is_directory(ec)) {
      entries.push_back(item.path());
    }
  }
  std::sort(entries.begin(), entries.end());
  for (const auto& path : entries) {
    if (fs::is_directory(path, ec)) {
      scan_folder(path, scan, depth + 1);
    } else {
      read_distributed(dir, path, scan);
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

std::string lock_digest_of(const nlohmann::json& statement) {
  const auto pointer = nlohmann::json::json_pointer(
      "/predicate/buildDefinition/externalParameters/lockFile/digest/sha256");
  return statement.contains(pointer) && statement[pointer].is_string()
             ? statement[pointer].get<std::string>()
             : std::string();
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
    ENVLOCK_TRY_ASSIGN(const std::string text, util::read_file(candidate));
    ENVLOCK_TRY_ASSIGN(
        const auto verified,
        provenance::verify_envelope(text, candidate.string(), key, config.public_key.string()));
    if (lock_digest_of(verified.statement) != pin.lock_sha256) {
      return check_failed(candidate.string() + ": describes the lock " +
                          lock_digest_of(verified.statement) + ", not " + pin.lock_path.string() +
                          " (" + pin.lock_sha256 + ")");
    }
    ENVLOCK_TRY(
        provenance::check_subject_digest(verified.statement, pin.image.digest, candidate.string()));
    Expectation e;
    e.sha256 = sqsh_subject(verified.statement);
    if (e.sha256.empty()) {
      return check_failed(candidate.string() + ": names no .sqsh subject; sign the provenance "
                                               "made with --squashfs-result");
    }
    e.source = candidate.string() + " (signed by " + verified.keyid + ")";
    return e;
  }
  return check_failed("no signed provenance for " + pin.lock_path.string() + " (looked for " +
                      tried.front() + "); a public key is configured in " + config.file.string());
}

} // namespace

SqshDirScan scan_sqsh_dirs(const std::vector<fs::path>& dirs) {
  SqshDirScan scan;
  for (const auto& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
      scan.warnings.push_back(dir.string() + ": not a folder; sqsh_dirs entry ignored");
      continue;
    }
    scan_folder(dir, scan, 0);
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
