// The files Enroot 4.1.2 generates from the image config (`docker::configure` of Enroot's
// docker.sh, not part of envlock) and writes into the top layer of the image: /etc/rc,
// /etc/rc.local, /etc/environment, /etc/fstab, plus the working directory. The texts are reproduced
// byte for byte; docs/manual/squashfs.md lists what Enroot's master branch writes differently.
#pragma once

#include "lock/lock.hpp"
#include "squashfs/image_config.hpp"
#include "util/result.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace envlock::squashfs {

// /etc/rc: label comments, a blank line when there are labels, then the cd/exec script, its words
// quoted as bash's ${word@Q} quotes them under `locale` (bash_quote.hpp).
std::string render_rc(const ImageConfig& config, lock::EnrootLocale locale);
// /etc/environment: one Env entry per line.
std::string render_environment(const ImageConfig& config);
// /etc/fstab: one bind line per volume.
std::string render_fstab(const ImageConfig& config);
// /etc/rc.local: two comment lines.
std::string render_rc_local();

// True when the config's WorkingDir is set and does not start with '/'.
bool is_relative_workdir(const ImageConfig& config);

// The warning for a relative WorkingDir ("image config: WorkingDir 'rel/dir' is relative; ..."),
// nothing for an absolute or empty one.
std::optional<std::string> workdir_warning(const ImageConfig& config);

// Writes the four files (mode 0644) and creates /etc and the working directory (mode 0755, as
// under umask 022) inside the rootfs folder `root`, replacing whatever the layers left there, as
// Enroot's top overlay layer does. A relative WorkingDir creates no folder: Enroot's `mkdir -p
// "${rootfs}${workdir}"` puts it beside the rootfs. Fails with an input error when an absolute
// WorkingDir leaves the rootfs.
Status write_enroot_files(int root, const ImageConfig& config, lock::EnrootLocale locale);

} // namespace envlock::squashfs
