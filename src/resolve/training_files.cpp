#include "resolve/resolve.hpp"

#include "util/interrupt.hpp"
#include "util/sha256.hpp"

namespace envlock::resolve {

Status hash_training_files(const manifest::Manifest& manifest, lock::Training& training,
                           const FileProgress& progress) {
  const auto hash = [&](const std::string& field, lock::HashedFile& file) -> Status {
    const auto shown = [&](std::uint64_t hashed) {
      if (progress) {
        progress(file.path, hashed, static_cast<std::uint64_t>(file.size));
      }
    };
    std::error_code ec;
    const auto size = std::filesystem::file_size(manifest.dir / file.path, ec);
    file.size = ec ? 0 : static_cast<std::int64_t>(size);
    auto digest = util::sha256_file(manifest.dir / file.path, shown);
    if (!digest && util::interrupted()) {
      return std::move(digest).error();
    }
    if (!digest) {
      const std::string& message = digest.error().message;
      const std::string reason = message.substr(message.rfind(": ") + 2);
      return input_error(field + ": cannot read " + file.path + ": " + reason);
    }
    file.sha256 = digest->sha256;
    file.size = static_cast<std::int64_t>(digest->size);
    return {};
  };
  if (training.config) {
    ENVLOCK_TRY(hash("training.config", *training.config));
  }
  if (training.tokenizer) {
    for (auto& file : *training.tokenizer) {
      ENVLOCK_TRY(hash("training.tokenizer", file));
    }
  }
  if (training.data) {
    ENVLOCK_TRY(hash("training.data", training.data->bin));
    ENVLOCK_TRY(hash("training.data", training.data->idx));
  }
  return {};
}

} // namespace envlock::resolve
