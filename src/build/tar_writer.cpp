#include "build/tar_writer.hpp"

#include "squashfs/archive_reader.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <optional>

namespace envlock::build {

namespace {

struct EntryDeleter {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};

using EntryPtr = std::unique_ptr<archive_entry, EntryDeleter>;

} // namespace

struct TarWriter::State {
  struct WriteDeleter {
    void operator()(struct archive* a) const {
      // Every error of the stream has already been reported by finish() or an add_*; freeing an
      // unfinished writer only releases memory.
      if (archive_write_free(a) != ARCHIVE_OK) {
        return;
      }
    }
  };
  std::unique_ptr<struct archive, WriteDeleter> archive;
  ByteSink sink;
  std::int64_t mtime = 0;
  std::optional<Error> sink_error; // the first error of `sink`, reported instead of libarchive's

  Error failure(const std::string& what) {
    if (sink_error) {
      return *sink_error;
    }
    return env_error(what + ": " + squashfs::archive_error_text(archive.get()));
  }

  Result<EntryPtr> entry(const std::string& path, unsigned type, unsigned mode) {
    EntryPtr e(archive_entry_new());
    if (!e) {
      return env_error("libarchive: cannot create an entry for " + path);
    }
    archive_entry_set_pathname(e.get(), path.c_str());
    archive_entry_set_filetype(e.get(), type);
    archive_entry_set_perm(e.get(), static_cast<mode_t>(mode));
    archive_entry_set_uid(e.get(), 0);
    archive_entry_set_gid(e.get(), 0);
    archive_entry_set_mtime(e.get(), static_cast<time_t>(mtime), 0);
    return e;
  }

  // libarchive's write callback: hands the bytes to `sink`, remembering its first error.
  static la_ssize_t write(struct archive* /*a*/, void* client, const void* buffer, size_t length) {
    auto* state = static_cast<State*>(client);
    if (state->sink_error) {
      return -1;
    }
    auto status = state->sink(std::string_view(static_cast<const char*>(buffer), length));
    if (!status) {
      state->sink_error = std::move(status).error();
      return -1;
    }
    return static_cast<la_ssize_t>(length);
  }

  Status write_header(archive_entry* e, const std::string& path) {
    if (archive_write_header(archive.get(), e) != ARCHIVE_OK) {
      return failure("cannot add " + path + " to the tar");
    }
    return {};
  }
};

TarWriter::TarWriter(std::unique_ptr<State> state) : m_state(std::move(state)) {}
TarWriter::TarWriter(TarWriter&&) noexcept = default;
TarWriter& TarWriter::operator=(TarWriter&&) noexcept = default;
TarWriter::~TarWriter() = default;

Result<TarWriter> TarWriter::open(ByteSink sink, std::int64_t mtime) {
  auto state = std::make_unique<State>();
  state->archive.reset(archive_write_new());
  if (!state->archive) {
    return env_error("libarchive: cannot create a writer");
  }
  state->sink = std::move(sink);
  state->mtime = mtime;
  struct archive* a = state->archive.get();
  if (archive_write_set_format_pax_restricted(a) != ARCHIVE_OK ||
      archive_write_add_filter_none(a) != ARCHIVE_OK ||
      archive_write_open(a, state.get(), nullptr, State::write, nullptr) != ARCHIVE_OK) {
    return state->failure("libarchive: cannot open the tar writer");
  }
  return TarWriter(std::move(state));
}

Status TarWriter::add_directory(const std::string& path) {
  ENVLOCK_TRY_ASSIGN(const EntryPtr e, m_state->entry(path, AE_IFDIR, 0755));
  return m_state->write_header(e.get(), path);
}

Status TarWriter::add_file(const std::string& path, unsigned mode, std::uint64_t size,
                           const std::function<Status(const ByteSink&)>& fill) {
  ENVLOCK_TRY_ASSIGN(const EntryPtr e, m_state->entry(path, AE_IFREG, mode));
  archive_entry_set_size(e.get(), static_cast<la_int64_t>(size));
  ENVLOCK_TRY(m_state->write_header(e.get(), path));
  std::uint64_t written = 0;
  const ByteSink data_sink = [&](std::string_view data) -> Status {
    while (!data.empty()) {
      const la_ssize_t n = archive_write_data(m_state->archive.get(), data.data(), data.size());
      if (n <= 0) {
        return m_state->failure("cannot write " + path + " to the tar");
      }
      written += static_cast<std::uint64_t>(n);
      data.remove_prefix(static_cast<std::size_t>(n));
    }
    return {};
  };
  ENVLOCK_TRY(fill(data_sink));
  if (written != size) {
    return env_error(path + ": wrote " + std::to_string(written) + " of " + std::to_string(size) +
                     " bytes");
  }
  return {};
}

Status TarWriter::add_file(const std::string& path, unsigned mode, std::string_view data) {
  return add_file(path, mode, data.size(), [data](const ByteSink& sink) { return sink(data); });
}

Status TarWriter::add_symlink(const std::string& path, const std::string& target) {
  ENVLOCK_TRY_ASSIGN(const EntryPtr e, m_state->entry(path, AE_IFLNK, 0777));
  archive_entry_set_symlink(e.get(), target.c_str());
  return m_state->write_header(e.get(), path);
}

Status TarWriter::finish() {
  if (archive_write_close(m_state->archive.get()) != ARCHIVE_OK) {
    return m_state->failure("cannot finish the tar");
  }
  return {};
}

} // namespace envlock::build
