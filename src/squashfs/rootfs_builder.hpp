// Applies image layers, in order, onto one rootfs folder, giving the tree that Enroot's overlay of
// separately extracted layers shows: the topmost layer decides each entry and each folder's mode;
// OCI whiteouts (.wh.NAME) delete, opaque markers (.wh..wh..opq) hide what lower layers put in a
// folder; dev/* entries are skipped; no xattrs and no ownership are kept (mksquashfs -all-root).
//
// Safety: every write goes through descriptors opened beneath the rootfs with O_NOFOLLOW; names
// with "..", names that go through a symbolic link of the same layer, and hard links whose target
// leaves the rootfs are refused (input error naming the layer digest and the entry); a leading '/'
// is removed, and device nodes, FIFOs and sockets are skipped, each with a warning.
//
// Parity: a layer that Enroot's tar cannot extract is refused, naming both entries, rather than
// turned into a different tree: an entry (a whiteout too) under a path the same layer holds as a
// file, and a file, link or symbolic link over a folder the same layer put entries in.
#pragma once

#include "squashfs/dir_fd.hpp"
#include "util/result.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

struct archive;
struct archive_entry;

namespace envlock::squashfs {

// Called with the number of blob bytes read so far from the current layer.
using ProgressFn = std::function<void(std::uint64_t)>;

class RootfsBuilder {
public:
  // Builds into the existing, empty folder `root`. Fails with an environment error.
  static Result<RootfsBuilder> open(const std::filesystem::path& root);

  // The holes (bytes no data block covers) the sparse files of one layer may leave: 16 GiB.
  // Beyond it the layer is refused, naming the file ("a sparse file of N bytes of which M are
  // stored ...").
  static constexpr std::uint64_t k_max_layer_holes = std::uint64_t{16} << 30;

  // Applies the layer in `blob` (tar, optionally gzip or zstd compressed) whose sha256 must be
  // `digest`; a mismatch is an input error "layer sha256:...: digest mismatch (got sha256:...)".
  Status apply_layer(const std::filesystem::path& blob, const std::string& digest,
                     const ProgressFn& progress);

  // Gives every folder the mode its topmost layer gave it (folders stay 0700 while layers are
  // applied, so that the builder can always write into them).
  Status finish();

  [[nodiscard]] int root_fd() const { return m_root.get(); }
  // Warnings about neutralised entries ("layer sha256:...: 'dev/x': device node skipped").
  [[nodiscard]] const std::vector<std::string>& warnings() const { return m_warnings; }

private:
  explicit RootfsBuilder(util::Fd root) : m_root(std::move(root)) {}
  Status apply_entry(struct archive* reader, struct archive_entry* entry);
  Result<util::Fd> open_parent(const std::vector<std::string>& parts, const std::string& shown);
  Status write_regular(struct archive* reader, int dir, const std::string& name,
                       const std::string& shown, unsigned mode, std::int64_t size);
  Status write_hardlink(int dir, const std::string& name, const std::string& shown,
                        const std::string& target);
  Status apply_whiteout(int dir, const std::string& dir_path, const std::string& name);
  Status remove_hidden(int dir, const std::string& dir_path);
  Status check_replaces_no_folder(const std::string& shown) const;
  Error refuse(const std::string& path, const std::string& why) const;
  void warn(const std::string& path, const std::string& why);

  util::Fd m_root;
  std::string m_layer;                         // digest of the layer being applied
  std::set<std::string> m_seen;                // paths written by the current layer
  std::set<std::string> m_layer_links;         // symbolic links written by the current layer
  std::set<std::string> m_layer_files;         // files and hard links written by the current layer
  std::uint64_t m_layer_holes = 0;             // bytes of holes in the current layer's files
  std::map<std::string, unsigned> m_dir_modes; // final folder modes
  std::vector<std::string> m_warnings;
};

} // namespace envlock::squashfs
