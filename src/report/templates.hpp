// The Mustache templates of templates/*.mustache, embedded in the executable at build time, and
// rendering them with kainjow/mustache.
#pragma once

#include "util/result.hpp"

#include <kainjow/mustache.hpp>
#include <string>
#include <string_view>

namespace envlock::report {

// The text of templates/<name>; an environment error when it was not built in.
Result<std::string_view> embedded_template(std::string_view name);

// `text` with every run of blank lines cut to one (sections that render nothing leave blank
// lines behind in kainjow/mustache).
std::string collapse_blank_lines(std::string_view text);

// Renders templates/<name> with `data`, then collapses blank lines. Fails with an environment error
// naming the template when it is missing or does not parse.
Result<std::string> render_template(std::string_view name, const kainjow::mustache::data& data);

} // namespace envlock::report
