// Enroot's permission fix-up (`common::fixperms` of Enroot's common.sh), applied to the extracted
// layers before the image is squashed:
//   chmod -f -R u+rX .
//   find . -maxdepth 15 -type d ! -perm -u=w -exec chmod -f u+w {} +
// Enroot runs it in the folder that holds the layer folders, so in rootfs terms folders at depth
// 14 or less (top-level entries have depth 1) gain u+w.
#pragma once

#include "util/result.hpp"

namespace envlock::squashfs {

// Applies the fix-up to the rootfs folder `root` without following symbolic links. Fails with
// an environment error when a folder cannot be read or a mode cannot be set.
Status fix_permissions(int root);

} // namespace envlock::squashfs
