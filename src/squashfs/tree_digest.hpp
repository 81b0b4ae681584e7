// The tree digest: one sha256 over a file tree's paths, types, permission bits, symbolic link
// targets and file contents, and nothing else (no times, owners, xattrs, inode numbers, hard link
// structure, block layout or compression). The same tree gives the same digest whether it is read
// from a folder, a tar stream or a .sqsh, so it survives a change of squashfs-tools version or
// compression. docs/formats/tree-digest.md defines the byte form.
#pragma once

#include "util/result.hpp"

#include <filesystem>
#include <map>
#include <string>

namespace envlock::squashfs {

enum class NodeType { directory, regular, symlink, char_device, block_device, fifo, socket };

struct TreeNode {
  NodeType type = NodeType::regular;
  unsigned mode = 0; // permission bits incl. setuid/setgid/sticky (07777); 0777 for links
  std::string value; // regular: sha256 hex of the contents; symlink: target; device: "MAJ,MIN"
  bool operator==(const TreeNode&) const = default;
};

// Paths relative to the root, without a leading "./"; the root itself is ".".
using Tree = std::map<std::string, TreeNode>;

// "sha256:<hex>" of the tree's canonical records (tree-digest.md).
std::string tree_digest(const Tree& tree);

// The canonical record of one node: "<type> <mode> <len>:<path> <len>:<value>\n".
std::string tree_record(const std::string& path, const TreeNode& node);

// Reads a folder without following symbolic links. Fails with an input error naming the path.
Result<Tree> read_tree_dir(const std::filesystem::path& root);

// Reads a tar stream from descriptor `fd` (hard link entries take their target's contents).
// `origin` names the stream in errors.
Result<Tree> read_tree_tar(int fd, const std::string& origin);

// Reads a .sqsh through `sqfs2tar --root-becomes . --no-xattr` (squashfs-tools-ng), which reads
// every compressor squashfs-tools writes, LZO included. Environment error when sqfs2tar is
// missing or fails.
Result<Tree> read_tree_sqsh(const std::filesystem::path& image);

// The tree digest of a folder or of a .sqsh file.
Result<std::string> tree_digest_of(const std::filesystem::path& path);

} // namespace envlock::squashfs
