// The files Enroot 4.1.2 generates from the image config (`docker::configure` of Enroot's
// docker.sh, not part of envlock) and writes into the top layer of the image: /etc/rc,
// /etc/rc.local, /etc/environment, /etc/fstab, plus the working directory. The texts are reproduced
// byte for byte; docs/manual/squashfs.md lists what Enroot's master branch writes differently.
#pragma once

#include "squashfs/image_config.hpp"
#include "util/result.hpp"

#include <string>
#include <string_view>

namespace envlock::squashfs {

// A word quoted the way bash 5's ${word@Q} quotes it: 'it'\''s', or $'a\tb' when it holds
// control characters.
std::string bash_quote(std::string_view word);

// /etc/rc: label comments, a blank line when there are labels, then the cd/exec script.
std::string render_rc(const ImageConfig& config);
// /etc/environment: one Env entry per line.
std::string render_environment(const ImageConfig& config);
// /etc/fstab: one bind line per volume.
std::string render_fstab(const ImageConfig& config);
// /etc/rc.local: two comment lines.
std::string render_rc_local();

// Writes the four files (mode 0644) and creates /etc and the working directory (mode 0755, as
// under umask 022) inside the rootfs folder `root`, replacing whatever the layers left there, as
// Enroot's top overlay layer does. Fails with an input error when the WorkingDir leaves the rootfs.
Status write_enroot_files(int root, const ImageConfig& config);

} // namespace envlock::squashfs
