#include "squashfs/tree_digest.hpp"

#include "squashfs/dir_fd.hpp"
#include "util/dir.hpp"
#include "util/interrupt.hpp"
#include "util/sha256.hpp"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <vector>

namespace envlock::squashfs {

namespace {

char type_letter(NodeType type) {
  switch (type) {
  case NodeType::directory:
    return 'd';
  case NodeType::regular:
    return 'f';
  case NodeType::symlink:
    return 'l';
  case NodeType::char_device:
    return 'c';
  case NodeType::block_device:
    return 'b';
  case NodeType::fifo:
    return 'p';
  case NodeType::socket:
    return 's';
  }
  return '?';
}

Result<std::string> hash_file_at(int dir, const std::string& name, const std::string& shown) {
  const util::Fd file(::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (!file) {
    return input_error(shown + ": cannot open: " + std::strerror(errno));
  }
  ENVLOCK_TRY_ASSIGN(const util::Sha256Bytes digest,
                     util::sha256_fd(file.get(), shown + ": cannot read: "));
  return util::to_hex(digest.data(), digest.size());
}

Result<TreeNode> node_at(int dir, const std::string& name, const std::string& shown,
                         const struct stat& st) {
  TreeNode node;
  node.mode = st.st_mode & 07777U;
  switch (st.st_mode & S_IFMT) {
  case S_IFDIR:
    node.type = NodeType::directory;
    break;
  case S_IFREG: {
    node.type = NodeType::regular;
    ENVLOCK_TRY_ASSIGN(node.value, hash_file_at(dir, name, shown));
    break;
  }
  case S_IFLNK: {
    node.type = NodeType::symlink;
    node.mode = 0777;
    std::vector<char> buf(static_cast<std::size_t>(st.st_size) + 1);
    const ssize_t n = ::readlinkat(dir, name.c_str(), buf.data(), buf.size());
    if (n < 0) {
      return input_error(shown + ": cannot read link: " + std::strerror(errno));
    }
    node.value.assign(buf.data(), static_cast<std::size_t>(n));
    break;
  }
  case S_IFCHR:
  case S_IFBLK:
    node.type = S_ISCHR(st.st_mode) ? NodeType::char_device : NodeType::block_device;
    node.value = std::to_string(major(st.st_rdev)) + "," + std::to_string(minor(st.st_rdev));
    break;
  case S_IFIFO:
    node.type = NodeType::fifo;
    break;
  default:
    node.type = NodeType::socket;
    break;
  }
  return node;
}

Status walk(int dir, const std::string& prefix, Tree& tree) {
  ENVLOCK_TRY(util::interruption_check());
  ENVLOCK_TRY_ASSIGN(const std::vector<std::string> names,
                     util::names_in_folder(dir, prefix.empty() ? "." : prefix, ExitCode::usage));
  for (const auto& name : names) {
    const std::string path = prefix.empty() ? name : prefix + "/" + name;
    const auto st = stat_at(dir, name);
    if (!st) {
      return input_error(path + ": vanished while reading");
    }
    ENVLOCK_TRY_ASSIGN(TreeNode node, node_at(dir, name, path, *st));
    const bool is_dir = node.type == NodeType::directory;
    tree[path] = std::move(node);
    if (is_dir) {
      auto sub = open_subdir(dir, name);
      if (!sub) {
        return input_error(path + ": cannot open");
      }
      ENVLOCK_TRY(walk(sub->get(), path, tree));
    }
  }
  return {};
}

} // namespace

std::string tree_record(const std::string& path, const TreeNode& node) {
  std::array<char, 8> mode{};
  (void)std::snprintf(mode.data(), mode.size(), "%04o", node.mode);
  std::string out;
  out += type_letter(node.type);
  out += ' ';
  out += mode.data();
  out += ' ' + std::to_string(path.size()) + ':' + path;
  out += ' ' + std::to_string(node.value.size()) + ':' + node.value;
  out += '\n';
  return out;
}

std::string tree_digest(const Tree& tree) {
  util::Sha256 hash;
  hash.update("envlock-tree-digest/v1\n");
  for (const auto& [path, node] : tree) {
    hash.update(tree_record(path, node));
  }
  return "sha256:" + hash.finish_hex();
}

Result<Tree> read_tree_dir(const std::filesystem::path& root) {
  auto dir = open_dir(root.string());
  if (!dir) {
    return input_error(dir.error().message);
  }
  struct stat st {};
  if (::fstat(dir->get(), &st) != 0) {
    return input_error(root.string() + ": " + std::strerror(errno));
  }
  Tree tree;
  tree["."] = TreeNode{NodeType::directory, static_cast<unsigned>(st.st_mode & 07777U), ""};
  ENVLOCK_TRY(walk(dir->get(), "", tree));
  return tree;
}

Result<std::string> tree_digest_of(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    ENVLOCK_TRY_ASSIGN(const Tree tree, read_tree_dir(path));
    return tree_digest(tree);
  }
  if (!std::filesystem::is_regular_file(path, ec)) {
    return input_error(path.string() + ": no such file or folder");
  }
  ENVLOCK_TRY_ASSIGN(const Tree tree, read_tree_sqsh(path));
  return tree_digest(tree);
}

} // namespace envlock::squashfs
