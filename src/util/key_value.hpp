// KEY=VALUE text, the one reader for the files that are written that way: /etc/os-release,
// /etc/environment (Enroot writes an image's ENV there), pyvenv.cfg, torch/version.py.
#pragma once

#include <functional>
#include <string_view>

namespace envlock::util {

// Calls `line` with the key and the raw value of each KEY=VALUE line of `text`. Lines are trimmed;
// blank lines, lines starting with '#' and lines without '=' are skipped. The key is trimmed;
// the value is everything after the first '=', as written (callers trim and unquote as their
// format wants).
void for_each_key_value(
    std::string_view text,
    const std::function<void(std::string_view key, std::string_view value)>& line);

// `value` without one pair of matching surrounding quotes (single or double), else as it is.
std::string_view unquote(std::string_view value);

} // namespace envlock::util
