#include "squashfs/pipeline.hpp"

#include "squashfs/enroot_files.hpp"
#include "squashfs/fixperms.hpp"
#include "squashfs/image_config.hpp"
#include "squashfs/rootfs_builder.hpp"
#include "squashfs/superblock.hpp"
#include "squashfs/tree_digest.hpp"
#include "squashfs/unpack.hpp"
#include "util/fd.hpp"
#include "util/fs.hpp"
#include "util/json.hpp"
#include "util/sha256.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace envlock::squashfs {

namespace fs = std::filesystem;

namespace {

// Copies the file `from` into the stream target `to` ("-", a device, a FIFO).
Status copy_into_stream(const fs::path& from, const util::OutputTarget& to) {
  ENVLOCK_TRY_ASSIGN(util::AtomicFile out, util::AtomicFile::open(to.path));
  const util::Fd in(::open(from.c_str(), O_RDONLY | O_CLOEXEC));
  if (!in) {
    return env_error(from.string() + ": " + std::strerror(errno));
  }
  std::vector<char> buf(std::size_t{1} << 20);
  for (;;) {
    const ssize_t n = ::read(in.get(), buf.data(), buf.size());
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return env_error(from.string() + ": " + std::strerror(errno));
    }
    if (n == 0) {
      return out.commit();
    }
    ENVLOCK_TRY(out.write(std::string_view(buf.data(), static_cast<std::size_t>(n))));
  }
}

// The folder a new .sqsh is made in: a fresh one beside the output file (so that the rename is
// atomic), or under `scratch` for a stream. Removed with what is left in it when done.
Result<util::TempDir> make_stage(const util::OutputTarget& target, const fs::path& scratch,
                                 const std::string& name) {
  const bool stream = target.kind == util::OutputTarget::Kind::stream;
  const fs::path folder = stream                              ? scratch
                          : target.path.parent_path().empty() ? fs::path(".")
                                                              : target.path.parent_path();
  std::error_code made;
  fs::create_directories(folder, made);
  if (made) {
    return env_error(folder.string() + ": cannot create: " + made.message());
  }
  return util::TempDir::create_in(folder, "." + name + ".envlock");
}

// Publishes the new .sqsh and its result as a pair, so that a reader never finds the new image
// beside the old result (or the old image beside the new one for longer than two renames): both
// are written and flushed first (a full disk fails here, with the old pair untouched), then the
// .sqsh is renamed into place and the result last.
Status publish_pair(const fs::path& staged, const util::OutputTarget& target,
                    const fs::path& output, const fs::path& result_path,
                    const formats::SquashfsResult& result) {
  ENVLOCK_TRY_ASSIGN(util::AtomicFile result_file, util::AtomicFile::open(result_path));
  ENVLOCK_TRY(result_file.write(util::canonical_json(to_json(result))));
  ENVLOCK_TRY(result_file.sync());
  if (target.kind == util::OutputTarget::Kind::stream) {
    ENVLOCK_TRY(copy_into_stream(staged, target));
  } else {
    const util::Fd fd(::open(staged.c_str(), O_RDONLY | O_CLOEXEC));
    if (!fd || ::fsync(fd.get()) != 0 || std::rename(staged.c_str(), target.path.c_str()) != 0) {
      return env_error(output.string() + ": cannot write: " + std::strerror(errno));
    }
  }
  auto committed = result_file.commit();
  if (!committed) {
    return env_error(output.string() + " was written but its result " + result_path.string() +
                     " was not (" + committed.error().message +
                     "): the two do not match until envlock squashfs runs again");
  }
  return {};
}

} // namespace

Status describe_sqsh(const fs::path& path, formats::SquashfsResult& result) {
  ENVLOCK_TRY_ASSIGN(result.sha256, util::sha256_file_hex(path));
  std::error_code ec;
  result.size = fs::file_size(path, ec);
  if (ec) {
    return env_error(path.string() + ": " + ec.message());
  }
  ENVLOCK_TRY_ASSIGN(result.superblock, read_superblock(path));
  result.file_name = path.filename().string();
  return {};
}

Result<SquashOutcome> squash_image(const SquashJob& job) {
  SquashOutcome out;
  formats::SquashfsResult& r = out.result;
  ENVLOCK_TRY_ASSIGN(r.squashfs_tools_version, mksquashfs_version());
  ENVLOCK_TRY_ASSIGN(const util::TempDir scratch, util::TempDir::create("envlock-squashfs"));
  const fs::path rootfs = scratch.path() / "rootfs";
  if (::mkdir(rootfs.c_str(), 0755) != 0) {
    return env_error(rootfs.string() + ": " + std::strerror(errno));
  }
  ENVLOCK_TRY_ASSIGN(UnpackedImage unpacked,
                     unpack_image(*job.source, job.platform, rootfs, job.settings.locale,
                                  job.progress, "squashing"));
  out.warnings = std::move(unpacked.warnings);
  ENVLOCK_TRY_ASSIGN(const Tree tree, read_tree_dir(rootfs));

  r.mksquashfs_arguments = mksquashfs_arguments(job.settings);
  ENVLOCK_TRY_ASSIGN(const util::OutputTarget target, util::output_target(job.output));
  const bool stream = target.kind == util::OutputTarget::Kind::stream;
  const std::string name = stream ? std::string("image.sqsh") : target.path.filename().string();
  ENVLOCK_TRY_ASSIGN(const util::TempDir stage, make_stage(target, scratch.path(), name));
  const fs::path staged = stage.path() / name;
  ENVLOCK_TRY(run_mksquashfs(rootfs, staged, r.mksquashfs_arguments));
  ENVLOCK_TRY(describe_sqsh(staged, r));
  r.file_name = job.output.filename().string();
  r.image_reference = job.image_reference;
  r.manifest_digest = unpacked.manifest_digest;
  r.platform = job.platform;
  r.tree_digest = tree_digest(tree);
  r.producer = "envlock";
  r.squash_options = job.settings.squash_options;
  r.source_date_epoch = job.settings.source_date_epoch;
  r.locale = job.settings.locale;
  ENVLOCK_TRY(publish_pair(staged, target, job.output, job.result_path, r));
  return out;
}

} // namespace envlock::squashfs
