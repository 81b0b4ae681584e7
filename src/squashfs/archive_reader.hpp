// RAII for libarchive read handles (the one place the squashfs module includes archive.h).
#pragma once

#include "util/result.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <memory>
#include <string>

namespace envlock::squashfs {

struct ArchiveReadDeleter {
  void operator()(struct archive* a) const;
};
using ArchiveReader = std::unique_ptr<struct archive, ArchiveReadDeleter>;

// A reader for tar archives (ustar, pax, GNU) behind any compression filter libarchive knows
// (gzip, zstd, none). Fails with an environment error when libarchive cannot set one up.
Result<ArchiveReader> new_tar_reader();

// libarchive's last error text for `a`, or "unknown error".
std::string archive_error_text(struct archive* a);

} // namespace envlock::squashfs
