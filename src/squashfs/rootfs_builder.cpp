#include "squashfs/rootfs_builder.hpp"

#include "squashfs/archive_reader.hpp"
#include "squashfs/entry_path.hpp"
#include "squashfs/hashing_stream.hpp"
#include "util/interrupt.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace envlock::squashfs {

namespace {

constexpr const char* k_whiteout = ".wh.";
constexpr unsigned k_implicit_dir_mode = 0755;

std::string child_path(const std::string& dir, const std::string& name) {
  return dir.empty() ? name : dir + "/" + name;
}

} // namespace

Result<RootfsBuilder> RootfsBuilder::open(const std::filesystem::path& root) {
  ENVLOCK_TRY_ASSIGN(util::Fd fd, open_dir(root.string()));
  return RootfsBuilder(std::move(fd));
}

Error RootfsBuilder::refuse(const std::string& path, const std::string& why) const {
  return input_error("layer " + m_layer + ": '" + path + "': " + why);
}

void RootfsBuilder::warn(const std::string& path, const std::string& why) {
  m_warnings.push_back("layer " + m_layer + ": '" + path + "': " + why);
}

Status RootfsBuilder::apply_layer(const std::filesystem::path& blob, const std::string& digest,
                                  const ProgressFn& progress) {
  m_layer = digest;
  m_seen.clear();
  m_layer_links.clear();
  m_layer_files.clear();
  m_layer_holes = 0;
  ENVLOCK_TRY_ASSIGN(const auto stream, HashingStream::open(blob, progress));
  ENVLOCK_TRY_ASSIGN(const ArchiveReader reader, new_tar_reader());
  if (auto attached = stream->attach(reader.get()); !attached) {
    return input_error("layer " + digest + ": " + attached.error().message);
  }
  for (;;) {
    ENVLOCK_TRY(util::interruption_check());
    struct archive_entry* entry = nullptr;
    const int rc = archive_read_next_header(reader.get(), &entry);
    if (rc == ARCHIVE_EOF) {
      break;
    }
    if (rc < ARCHIVE_WARN) {
      return input_error("layer " + digest + ": " + archive_error_text(reader.get()));
    }
    ENVLOCK_TRY(apply_entry(reader.get(), entry));
  }
  if (archive_read_close(reader.get()) != ARCHIVE_OK) {
    return input_error("layer " + digest + ": " + archive_error_text(reader.get()));
  }
  ENVLOCK_TRY_ASSIGN(const std::string got, stream->finish_digest());
  if (got != digest) {
    return input_error("layer " + digest + ": digest mismatch (got " + got + ")");
  }
  return {};
}

Result<util::Fd> RootfsBuilder::open_parent(const std::vector<std::string>& parts,
                                            const std::string& shown) {
  const int dup_fd = ::openat(m_root.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dup_fd < 0) {
    return env_error(std::string("rootfs: cannot open: ") + std::strerror(errno));
  }
  util::Fd dir(dup_fd);
  std::string path;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    path = child_path(path, parts[i]);
    if (m_layer_links.count(path) != 0) {
      return refuse(shown, "goes through the symbolic link '" + path + "' of the same layer");
    }
    if (m_layer_files.count(path) != 0) {
      return refuse(shown, "lies under '" + path +
                               "', which the same layer holds as a file (Enroot's import fails "
                               "on this layer; envlock will not turn the file into a folder)");
    }
    ENVLOCK_TRY_ASSIGN(util::Fd sub, ensure_dir_at(dir.get(), parts[i], path));
    if (m_seen.insert(path).second) {
      // A parent this layer does not list: tar creates it 0755 in the layer, and the overlay
      // shows the topmost layer's folder.
      m_dir_modes[path] = k_implicit_dir_mode;
    }
    dir = std::move(sub);
  }
  return dir;
}

Status RootfsBuilder::apply_entry(struct archive* reader, struct archive_entry* entry) {
  const char* raw = archive_entry_pathname(entry);
  const std::string name = raw != nullptr ? raw : "";
  EntryPath path = split_entry_path(name);
  if (path.problem == PathProblem::dot_dot) {
    return refuse(name, "name contains '..'; refusing to write outside the rootfs");
  }
  if (path.problem == PathProblem::too_long) {
    return refuse(name.substr(0, 64) + "...", "name too long");
  }
  if (path.parts.empty()) {
    return {}; // the layer's root: Enroot's top layer decides the root folder
  }
  if (path.parts.size() >= 2 && path.parts[0] == "dev") {
    return {}; // Enroot extracts with --exclude='dev/*'
  }
  const std::string shown = path.joined();
  if (path.absolute) {
    warn(name, "leading '/' removed");
  }
  const std::string leaf = path.parts.back();
  const mode_t type = archive_entry_filetype(entry);
  const char* link = archive_entry_hardlink(entry);
  if (link == nullptr &&
      (type == AE_IFCHR || type == AE_IFBLK || type == AE_IFIFO || type == AE_IFSOCK)) {
    warn(shown, "device node, FIFO or socket skipped");
    return {};
  }
  ENVLOCK_TRY_ASSIGN(const util::Fd parent, open_parent(path.parts, shown));
  const std::string parent_path = path.parent();
  if (leaf.rfind(k_whiteout, 0) == 0) {
    m_seen.insert(shown); // so that a file written over its folder later is caught
    return apply_whiteout(parent.get(), parent_path, leaf);
  }
  const unsigned mode = archive_entry_perm(entry) & 07777U;
  m_layer_links.erase(shown);
  m_layer_files.erase(shown);
  if (type == AE_IFDIR && link == nullptr) {
    m_seen.insert(shown);
    ENVLOCK_TRY(ensure_dir_at(parent.get(), leaf, shown));
    m_dir_modes[shown] = mode;
    return {};
  }
  ENVLOCK_TRY(check_replaces_no_folder(shown));
  m_seen.insert(shown);
  if (link != nullptr) {
    m_layer_files.insert(shown);
    return write_hardlink(parent.get(), leaf, shown, link);
  }
  ENVLOCK_TRY(remove_at(parent.get(), leaf, shown));
  if (type == AE_IFLNK) {
    const char* target = archive_entry_symlink(entry);
    if (::symlinkat(target != nullptr ? target : "", parent.get(), leaf.c_str()) != 0) {
      return env_error(shown + ": cannot create symbolic link: " + std::strerror(errno));
    }
    m_layer_links.insert(shown);
    return {};
  }
  if (type == AE_IFREG) {
    m_layer_files.insert(shown);
    return write_regular(reader, parent.get(), leaf, shown, mode, archive_entry_size(entry));
  }
  warn(shown, "unknown entry type skipped");
  return {};
}

Status RootfsBuilder::check_replaces_no_folder(const std::string& shown) const {
  const std::string prefix = shown + "/";
  const auto under = m_seen.lower_bound(prefix);
  if (under != m_seen.end() && under->starts_with(prefix)) {
    return refuse(shown, "replaces the folder that holds '" + *under +
                             "' in the same layer (Enroot's import fails on this layer; envlock "
                             "will not drop what the layer put in the folder)");
  }
  return {};
}

Status RootfsBuilder::write_regular(struct archive* reader, int dir, const std::string& name,
                                    const std::string& shown, unsigned mode, std::int64_t size) {
  const int fd =
      ::openat(dir, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    return env_error(shown + ": cannot create: " + std::strerror(errno));
  }
  util::Fd file(fd);
  // A sparse member claims its size with a few bytes of map: bound the holes a layer may leave,
  // before the file is given that size, so that mksquashfs is never handed terabytes of zeros.
  std::uint64_t stored = 0;
  const auto check_holes = [&](std::uint64_t end) -> Status {
    const std::uint64_t holes = end > stored ? end - stored : 0;
    if (m_layer_holes + holes > k_max_layer_holes) {
      return refuse(shown, "a sparse file of " + std::to_string(end) + " bytes of which " +
                               std::to_string(stored) + " are stored: a layer may leave at most " +
                               std::to_string(k_max_layer_holes) +
                               " bytes of holes in its files (mksquashfs reads every one)");
    }
    return {};
  };
  for (;;) {
    const void* block = nullptr;
    std::size_t length = 0;
    la_int64_t offset = 0;
    const int rc = archive_read_data_block(reader, &block, &length, &offset);
    if (rc == ARCHIVE_EOF) {
      break;
    }
    if (rc < ARCHIVE_WARN) {
      return input_error("layer " + m_layer + ": '" + shown + "': " + archive_error_text(reader));
    }
    if (offset < 0) {
      return refuse(shown, "a data block at a negative offset");
    }
    stored += length;
    ENVLOCK_TRY(check_holes(static_cast<std::uint64_t>(offset) + length));
    const char* data = static_cast<const char*>(block);
    std::size_t done = 0;
    while (done < length) {
      const ssize_t n =
          ::pwrite(fd, data + done, length - done, offset + static_cast<la_int64_t>(done));
      if (n < 0 && errno != EINTR) {
        return env_error(shown + ": cannot write: " + std::strerror(errno));
      }
      done += n > 0 ? static_cast<std::size_t>(n) : 0;
    }
  }
  // Sparse files end in a hole that no data block covers.
  ENVLOCK_TRY(check_holes(size > 0 ? static_cast<std::uint64_t>(size) : 0));
  m_layer_holes += size > 0 && static_cast<std::uint64_t>(size) > stored
                       ? static_cast<std::uint64_t>(size) - stored
                       : 0;
  if (size > 0 && ::ftruncate(fd, size) != 0) {
    return env_error(shown + ": cannot set size: " + std::strerror(errno));
  }
  if (::fchmod(fd, mode) != 0) {
    return env_error(shown + ": cannot change mode: " + std::strerror(errno));
  }
  return {};
}

} // namespace envlock::squashfs
