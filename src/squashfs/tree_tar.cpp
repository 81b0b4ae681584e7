// Tree digests from tar streams, and from .sqsh files through sqfs2tar.
#include "squashfs/archive_reader.hpp"
#include "squashfs/dir_fd.hpp"
#include "squashfs/entry_path.hpp"
#include "squashfs/tree_digest.hpp"
#include "util/fs.hpp"
#include "util/process.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

namespace envlock::squashfs {

namespace {

NodeType type_of(mode_t type) {
  switch (type) {
  case AE_IFDIR:
    return NodeType::directory;
  case AE_IFLNK:
    return NodeType::symlink;
  case AE_IFCHR:
    return NodeType::char_device;
  case AE_IFBLK:
    return NodeType::block_device;
  case AE_IFIFO:
    return NodeType::fifo;
  case AE_IFSOCK:
    return NodeType::socket;
  default:
    return NodeType::regular;
  }
}

std::string tree_path(const char* name) {
  const EntryPath path = split_entry_path(name != nullptr ? name : "");
  return path.parts.empty() ? "." : path.joined();
}

Result<std::string> hash_data(struct archive* reader, const std::string& origin) {
  util::Sha256 hash;
  for (;;) {
    const void* block = nullptr;
    std::size_t size = 0;
    la_int64_t offset = 0;
    const int rc = archive_read_data_block(reader, &block, &size, &offset);
    if (rc == ARCHIVE_EOF) {
      break;
    }
    if (rc < ARCHIVE_WARN) {
      return input_error(origin + ": " + archive_error_text(reader));
    }
    hash.update(block, size);
  }
  return hash.finish_hex();
}

} // namespace

Result<Tree> read_tree_tar(int fd, const std::string& origin) {
  ENVLOCK_TRY_ASSIGN(const ArchiveReader reader, new_tar_reader());
  if (archive_read_open_fd(reader.get(), fd, std::size_t{1} << 20) != ARCHIVE_OK) {
    return input_error(origin + ": " + archive_error_text(reader.get()));
  }
  Tree tree;
  std::vector<std::pair<std::string, std::string>> hard_links; // path -> target
  for (;;) {
    struct archive_entry* entry = nullptr;
    const int rc = archive_read_next_header(reader.get(), &entry);
    if (rc == ARCHIVE_EOF) {
      break;
    }
    if (rc < ARCHIVE_WARN) {
      return input_error(origin + ": " + archive_error_text(reader.get()));
    }
    const std::string path = tree_path(archive_entry_pathname(entry));
    TreeNode node;
    node.mode = archive_entry_perm(entry) & 07777U;
    if (const char* link = archive_entry_hardlink(entry)) {
      hard_links.emplace_back(path, tree_path(link));
      tree[path] = node;
      continue;
    }
    node.type = type_of(archive_entry_filetype(entry));
    if (node.type == NodeType::regular) {
      ENVLOCK_TRY_ASSIGN(node.value, hash_data(reader.get(), origin + ": " + path));
    } else if (node.type == NodeType::symlink) {
      const char* target = archive_entry_symlink(entry);
      node.value = target != nullptr ? target : "";
      node.mode = 0777;
    } else if (node.type == NodeType::char_device || node.type == NodeType::block_device) {
      node.value = std::to_string(archive_entry_rdevmajor(entry)) + "," +
                   std::to_string(archive_entry_rdevminor(entry));
    }
    tree[path] = std::move(node);
  }
  for (const auto& [path, target] : hard_links) {
    const auto found = tree.find(target);
    if (found == tree.end() || found->second.type != NodeType::regular) {
      return input_error(origin + ": hard link '" + path + "' to a missing file '" + target + "'");
    }
    tree[path] = found->second;
  }
  if (archive_read_close(reader.get()) != ARCHIVE_OK) {
    return input_error(origin + ": " + archive_error_text(reader.get()));
  }
  return tree;
}

Result<Tree> read_tree_sqsh(const std::filesystem::path& image) {
  if (!util::find_program("sqfs2tar")) {
    return env_error("sqfs2tar: not found in PATH (install squashfs-tools-ng)");
  }
  ENVLOCK_TRY_ASSIGN(const util::TempDir scratch, util::TempDir::create("envlock-sqfs2tar"));
  const std::filesystem::path err_path = scratch.path() / "stderr";
  const util::Fd err_file(::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  std::array<int, 2> pipe_fds{};
  if (!err_file || ::pipe2(pipe_fds.data(), O_CLOEXEC) != 0) {
    return env_error(std::string("sqfs2tar: cannot prepare to start: ") + std::strerror(errno));
  }
  util::Fd read_end(pipe_fds[0]);
  util::Fd write_end(pipe_fds[1]);
  util::ProcessOptions options;
  options.stdout_fd = write_end.get();
  options.stderr_fd = err_file.get();
  ENVLOCK_TRY_ASSIGN(
      util::StartedProcess sqfs2tar,
      util::start_process({"sqfs2tar", "--root-becomes", ".", "--no-xattr", image.string()},
                          options));
  write_end = util::Fd();
  auto tree = read_tree_tar(read_end.get(), image.string());
  read_end = util::Fd(); // sqfs2tar gets EPIPE if we stopped early
  const int exit_code = sqfs2tar.wait();
  if (exit_code != 0) {
    const auto err = util::read_file(err_path);
    return input_error(image.string() + ": sqfs2tar failed (exit " + std::to_string(exit_code) +
                       "): " + std::string(util::trim(err ? *err : "")));
  }
  return tree;
}

} // namespace envlock::squashfs
