// Layer entry names, checked before anything is written: a name is split into components, "."
// and empty ones dropped; a leading '/' is noted (and removed, as GNU tar does); ".." anywhere
// is refused, since no legitimate layer needs it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace envlock::squashfs {

enum class PathProblem { none, dot_dot, too_long };

struct EntryPath {
  std::vector<std::string> parts; // empty for the layer's root
  bool absolute = false;          // the name started with '/'
  PathProblem problem = PathProblem::none;
  // "a/b/c", the rootfs-relative form used in messages and maps.
  [[nodiscard]] std::string joined() const;
  // The same path without its last component.
  [[nodiscard]] std::string parent() const;
};

// Splits a layer entry name or hard link target. Never fails; problems are reported in the
// result (`problem`): ".." components, a name longer than 4095 bytes or a component over 255.
EntryPath split_entry_path(std::string_view name);

} // namespace envlock::squashfs
