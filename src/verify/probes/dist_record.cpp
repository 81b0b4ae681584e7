#include "verify/probes/dist_record.hpp"

#include "util/fd.hpp"
#include "util/fs.hpp"
#include "util/root_dir.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace envlock::verify {

namespace {

// Splits one CSV line into fields; '"' quotes a field and '""' inside it is a quote.
std::vector<std::string> csv_fields(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

} // namespace

std::vector<RecordEntry> parse_record(std::string_view text) {
  std::vector<RecordEntry> out;
  for (const auto& raw : util::split(text, '\n')) {
    const std::string_view line = util::trim(raw);
    if (line.empty()) {
      continue;
    }
    auto fields = csv_fields(line);
    RecordEntry entry;
    entry.path = fields[0];
    if (fields.size() > 1 && fields[1].rfind("sha256=", 0) == 0) {
      entry.sha256 = fields[1].substr(7);
    }
    if (fields.size() > 2 && !fields[2].empty()) {
      std::int64_t size = -1;
      const auto* end = fields[2].data() + fields[2].size();
      if (std::from_chars(fields[2].data(), end, size).ptr == end) {
        entry.size = size;
      }
    }
    out.push_back(std::move(entry));
  }
  return out;
}

std::string urlsafe_b64_nopad(const std::uint8_t* data, std::size_t size) {
  static constexpr char k_alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  out.reserve((size * 4 + 2) / 3);
  std::size_t i = 0;
  for (; i + 3 <= size; i += 3) {
    const std::uint32_t v = (std::uint32_t{data[i]} << 16U) | (std::uint32_t{data[i + 1]} << 8U) |
                            std::uint32_t{data[i + 2]};
    out += k_alphabet[(v >> 18U) & 63U];
    out += k_alphabet[(v >> 12U) & 63U];
    out += k_alphabet[(v >> 6U) & 63U];
    out += k_alphabet[v & 63U];
  }
  if (size - i == 1) {
    const std::uint32_t v = std::uint32_t{data[i]} << 16U;
    out += k_alphabet[(v >> 18U) & 63U];
    out += k_alphabet[(v >> 12U) & 63U];
  } else if (size - i == 2) {
    const std::uint32_t v = (std::uint32_t{data[i]} << 16U) | (std::uint32_t{data[i + 1]} << 8U);
    out += k_alphabet[(v >> 18U) & 63U];
    out += k_alphabet[(v >> 12U) & 63U];
    out += k_alphabet[(v >> 6U) & 63U];
  }
  return out;
}

Result<std::string> record_hash_fd(int fd, const std::string& shown) {
  ENVLOCK_TRY_ASSIGN(const util::Sha256Bytes digest, util::sha256_fd(fd, shown + ": "));
  return urlsafe_b64_nopad(digest.data(), digest.size());
}

Result<std::string> record_hash_file(const std::filesystem::path& path) {
  ENVLOCK_TRY_ASSIGN(const util::Fd fd, util::open_regular_file(path));
  return record_hash_fd(fd.get(), path.string());
}

RecordCheck check_record_files(const std::vector<RecordFile>& files, const RecordOpener& open) {
  RecordCheck out;
  out.files = files.size();
  std::atomic<std::size_t> next{0};
  std::atomic<std::uintmax_t> bytes{0};
  std::mutex mutex;
  auto worker = [&] {
    for (std::size_t i = next++; i < files.size(); i = next++) {
      const auto& file = files[i];
      auto fd = open(file.path);
      if (!fd) {
        const std::lock_guard<std::mutex> guard(mutex);
        out.mismatches.push_back({file.shown, fd.error().message});
        continue;
      }
      struct stat st {};
      if (::fstat(fd->get(), &st) == 0) {
        bytes += static_cast<std::uintmax_t>(st.st_size);
      }
      auto hash = record_hash_fd(fd->get(), file.shown);
      if (!hash || *hash != file.sha256) {
        const std::lock_guard<std::mutex> guard(mutex);
        out.mismatches.push_back({file.shown, hash ? "hash differs" : hash.error().message});
      }
    }
  };
  const std::size_t threads = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 64);
  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (std::size_t t = 0; t < std::min(threads, files.size()); ++t) {
    pool.emplace_back(worker);
  }
  for (auto& thread : pool) {
    thread.join();
  }
  out.bytes = bytes;
  std::sort(out.mismatches.begin(), out.mismatches.end(),
            [](const RecordMismatch& a, const RecordMismatch& b) { return a.shown < b.shown; });
  return out;
}

} // namespace envlock::verify
