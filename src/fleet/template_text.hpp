// Finding and rendering the fleet's templates: <prefix>/share/envlock/templates/NAME beside the
// installed executable, then the source tree's templates/NAME, then the copy built into envlock.
#pragma once

#include "util/result.hpp"

#include <kainjow/mustache.hpp>
#include <string>

namespace envlock::fleet {

// Renders the template NAME with `data`. Fails with an environment error naming the template
// when it cannot be read or does not parse.
Result<std::string> render_fleet_template(const std::string& name,
                                          const kainjow::mustache::data& data);

} // namespace envlock::fleet
