// The health facts for people: `envlock node`'s "Health" sections, one per GPU and one for the
// host, each value with its source.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace envlock::node::health {

// "Health of GPU 0\n  KEY  VALUE  (SOURCE)\n..." then "Health of the host\n...". `health` is the
// node facts' "health" object.
std::string health_facts_text(const nlohmann::json& health);

} // namespace envlock::node::health
