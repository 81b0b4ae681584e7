#include "build/context_tar.hpp"

#include "git/blob_reader.hpp"
#include "util/fs.hpp"
#include "util/sha256.hpp"

#include <optional>

namespace envlock::build {

namespace {

Status write_entry(TarWriter& tar, const ContextEntry& entry,
                   const std::optional<git::BlobReader>& blobs) {
  if (entry.kind == EntryKind::directory) {
    return tar.add_directory(entry.path);
  }
  if (entry.blob.empty()) {
    return entry.kind == EntryKind::symlink ? tar.add_symlink(entry.path, entry.data)
                                            : tar.add_file(entry.path, entry.mode, entry.data);
  }
  return blobs->read(entry.blob, [&](std::string_view data) -> Status {
    return entry.kind == EntryKind::symlink ? tar.add_symlink(entry.path, std::string(data))
                                            : tar.add_file(entry.path, entry.mode, data);
  });
}

} // namespace

Result<ContextTar> write_context_tar(const ContextPlan& plan, const ByteSink& sink) {
  std::optional<git::BlobReader> blobs;
  for (const auto& entry : plan.entries) {
    if (!entry.blob.empty()) {
      ENVLOCK_TRY_ASSIGN(blobs, git::BlobReader::open(plan.repository));
      break;
    }
  }
  util::Sha256 hash;
  ContextTar summary;
  const ByteSink hashing = [&](std::string_view data) -> Status {
    hash.update(data);
    summary.size += data.size();
    return sink(data);
  };
  ENVLOCK_TRY_ASSIGN(TarWriter tar, TarWriter::open(hashing, plan.mtime));
  for (const auto& entry : plan.entries) {
    ENVLOCK_TRY(write_entry(tar, entry, blobs));
    ++summary.entries;
  }
  ENVLOCK_TRY(tar.finish());
  summary.sha256 = hash.finish_hex();
  return summary;
}

Result<ContextTar> write_context_file(const ContextPlan& plan, const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(util::AtomicFile file, util::AtomicFile::open(path));
  ENVLOCK_TRY_ASSIGN(const ContextTar summary, write_context_tar(plan, [&](std::string_view data) {
                       return file.write(data);
                     }));
  ENVLOCK_TRY(file.commit());
  return summary;
}

} // namespace envlock::build
