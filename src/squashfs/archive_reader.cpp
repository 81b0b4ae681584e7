#include "squashfs/archive_reader.hpp"

namespace envlock::squashfs {

void ArchiveReadDeleter::operator()(struct archive* a) const {
  // Closing a reader cannot fail in a way the caller could act on here; errors of the stream
  // itself are reported by archive_read_next_header/archive_read_data.
  if (archive_read_free(a) != ARCHIVE_OK) {
    return;
  }
}

Result<ArchiveReader> new_tar_reader() {
  ArchiveReader reader(archive_read_new());
  if (!reader) {
    return env_error("libarchive: cannot create a reader");
  }
  // ARCHIVE_WARN only says that some filters would need an external program.
  if (archive_read_support_filter_all(reader.get()) < ARCHIVE_WARN ||
      archive_read_support_format_tar(reader.get()) != ARCHIVE_OK) {
    return env_error("libarchive: " + archive_error_text(reader.get()));
  }
  return reader;
}

std::string archive_error_text(struct archive* a) {
  const char* text = archive_error_string(a);
  return text != nullptr ? text : "unknown error";
}

} // namespace envlock::squashfs
