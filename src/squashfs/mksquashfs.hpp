// Running mksquashfs the way Enroot 4.1.2 does (`enroot-mksquashovlfs ... -mkfs-time E
// -all-time E -all-root -no-progress -processors N $ENROOT_SQUASH_OPTIONS`), with a clean
// environment (PATH only), so SOURCE_DATE_EPOCH from our environment never reaches it.
#pragma once

#include "lock/lock.hpp"
#include "util/result.hpp"

#include "lock/lock.hpp"
#include <cstdint>
#include <filesystem>

#include <string>
#include <vector>

namespace envlock::squashfs {

// Enroot's settings for one image: ENROOT_SQUASH_OPTIONS, SOURCE_DATE_EPOCH and the locale its
// bash writes /etc/rc in.
struct SquashSettings {
  std::string squash_options = lock::k_enroot_squash_options; // split on blanks, as bash does
  std::int64_t source_date_epoch = 0;
  lock::EnrootLocale locale = lock::EnrootLocale::utf8;
};

// The arguments after `mksquashfs ROOTFS OUTPUT`. -processors is left out: it does not change
// the bytes, and leaving it out keeps the recorded arguments the same on every machine.
std::vector<std::string> mksquashfs_arguments(const SquashSettings& settings);

// The squashfs-tools version from `mksquashfs -version` ("4.5.1"); an environment error
// "mksquashfs: not found in PATH" when it is missing.
Result<std::string> mksquashfs_version();

// Runs `mksquashfs root output ARGS`; `output` must not exist. Fails with an environment error
// carrying the last lines of mksquashfs's output.
Status run_mksquashfs(const std::filesystem::path& root, const std::filesystem::path& output,
                      const std::vector<std::string>& arguments);

} // namespace envlock::squashfs
