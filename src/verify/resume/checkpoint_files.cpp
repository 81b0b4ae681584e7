#include "verify/resume/checkpoint_files.hpp"

#include "util/fd.hpp"
#include "util/sha256.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <system_error>
#include <unistd.h>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

constexpr std::uint32_t k_zip_local_header = 0x04034b50;
constexpr std::uint32_t k_zip_central_header = 0x02014b50;
constexpr std::uint32_t k_zip_end_of_directory = 0x06054b50;
constexpr std::uint32_t k_zip64_locator = 0x07064b50;
constexpr std::uint32_t k_zip64_end = 0x06064b50;
constexpr std::uint64_t k_zip_max_directory = std::uint64_t{64} << 20U;

std::uint64_t le_value(const std::string& bytes, std::size_t at, int width) {
  std::uint64_t value = 0;
  for (int i = width - 1; i >= 0; --i) {
    value = (value << 8U) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(i)]);
  }
  return value;
}

// `size` bytes at `offset`, or nothing when the file is shorter or cannot be read.
std::optional<std::string> read_span(int fd, std::uint64_t offset, std::uint64_t size) {
  std::string out(size, '\0');
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n =
        ::pread(fd, out.data() + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return std::nullopt;
    }
    done += static_cast<std::size_t>(n);
  }
  return out;
}

} // namespace

Result<CheckpointFiles> hash_checkpoint(const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::path> found;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code kind;
    if (it->is_regular_file(kind)) {
      found.push_back(it->path());
    }
  }
  if (ec) {
    return input_error(dir.string() + ": cannot list: " + ec.message());
  }
  CheckpointFiles out;
  for (const auto& path : found) {
    out.files.push_back({path.lexically_relative(dir).generic_string(), "", 0});
  }
  std::sort(out.files.begin(), out.files.end(),
            [](const CheckpointFile& a, const CheckpointFile& b) { return a.path < b.path; });
  util::Sha256 lines;
  for (auto& file : out.files) {
    ENVLOCK_TRY_ASSIGN(const util::FileDigest digest, util::sha256_file(dir / file.path));
    file.sha256 = digest.sha256;
    file.size = digest.size;
    out.bytes += digest.size;
    lines.update(file.sha256 + "  " + file.path + "\n");
  }
  out.sha256 = lines.finish_hex();
  return out;
}

std::string torch_save_problem(const fs::path& path, const std::string& shown) {
  const util::Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) {
    return shown + ": " + std::strerror(errno);
  }
  std::error_code ec;
  const std::uint64_t size = fs::file_size(path, ec);
  if (ec) {
    return shown + ": " + ec.message();
  }
  const auto head = read_span(fd.get(), 0, 4);
  if (!head || le_value(*head, 0, 4) != k_zip_local_header) {
    return shown + ": not a torch.save archive (it does not start with a zip header: an older "
                   "torch.save format, or another tool's file)";
  }
  // The end-of-central-directory record: 22 bytes and a comment of up to 65535 bytes.
  const std::uint64_t tail_size = std::min<std::uint64_t>(size, 22 + 65535);
  const auto tail = read_span(fd.get(), size - tail_size, tail_size);
  std::optional<std::size_t> end;
  if (tail && tail->size() >= 22) {
    for (std::size_t at = tail->size() - 21; at-- > 0;) {
      if (le_value(*tail, at, 4) == k_zip_end_of_directory) {
        end = at;
        break;
      }
    }
  }
  const std::string truncated = shown + ": truncated: ";
  if (!end) {
    return truncated + "no zip end-of-central-directory record (torch.save writes a zip "
                       "archive; the copy is incomplete)";
  }
  std::uint64_t directory_size = le_value(*tail, *end + 12, 4);
  std::uint64_t directory_offset = le_value(*tail, *end + 16, 4);
  if (directory_offset == 0xffffffffU || directory_size == 0xffffffffU) {
    // zip64: the locator just before the record names the zip64 end record.
    if (*end < 20 || le_value(*tail, *end - 20, 4) != k_zip64_locator) {
      return truncated + "no zip64 end-of-central-directory locator";
    }
    const auto record = read_span(fd.get(), le_value(*tail, *end - 20 + 8, 8), 56);
    if (!record || le_value(*record, 0, 4) != k_zip64_end) {
      return truncated + "no zip64 end-of-central-directory record";
    }
    directory_size = le_value(*record, 40, 8);
    directory_offset = le_value(*record, 48, 8);
  }
  if (directory_offset + directory_size > size || directory_size > k_zip_max_directory) {
    return truncated + "the zip directory lies beyond the end of the file";
  }
  const auto directory = read_span(fd.get(), directory_offset, directory_size);
  if (!directory) {
    return truncated + "the zip directory cannot be read";
  }
  for (std::size_t at = 0; at + 46 <= directory->size();) {
    if (le_value(*directory, at, 4) != k_zip_central_header) {
      return shown + ": a damaged zip directory (no entry header at offset " +
             std::to_string(directory_offset + at) + ")";
    }
    const std::size_t name_size = le_value(*directory, at + 28, 2);
    const std::size_t extra = le_value(*directory, at + 30, 2);
    const std::size_t comment = le_value(*directory, at + 32, 2);
    const std::string name = directory->substr(at + 46, name_size);
    if (name == "data.pkl" || name.ends_with("/data.pkl")) {
      return "";
    }
    at += 46 + name_size + extra + comment;
  }
  return shown + ": a zip archive without data.pkl: not written by torch.save";
}

} // namespace envlock::verify
