// Enroot's /etc/rc: the image's labels, written as "# <key> <value>" comment lines at the top
// (and, in newer Enroot, a "# enroot-provenance: <uri>" first line).
#pragma once

#include "verify/run_context.hpp"

#include <map>
#include <string>
#include <string_view>

namespace envlock::verify {

// The labels of the leading comment block; the provenance line is kept under the key
// "enroot-provenance". Parsing stops at the first line that is not a comment.
std::map<std::string, std::string> parse_enroot_rc_labels(std::string_view text);

// The label an image's build records its source commit under.
inline constexpr const char* k_image_revision_label = "org.opencontainers.image.revision";

// The labels of the checked system's /etc/rc; none when it has no /etc/rc.
std::map<std::string, std::string> image_labels(const RunContext& context);

} // namespace envlock::verify
