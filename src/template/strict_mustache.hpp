// Mustache rendering for files that are not HTML, where a misspelt name must not vanish quietly.
// Values print as they are (no HTML escaping, so {{x}} and {{{x}}} are the same), and every name
// a template uses must exist in the data: kainjow/mustache alone would print nothing for it.
#pragma once

#include "util/result.hpp"

#include <kainjow/mustache.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace envlock::templates {

// Renders the Mustache template `text` with `context` (objects, lists, strings, numbers printed
// as in JSON, true/false that print nothing). Fails (exit 2) with "ORIGIN: MESSAGE" when the
// template does not parse, and with "ORIGIN: unknown name 'NAME'" (plus "; did you mean 'X'?"
// when a name of the context is close) for the first name, variable, section or partial, that
// the context lacks.
Result<std::string> render_mustache(std::string_view text, const std::string& origin,
                                    const nlohmann::json& context);

// `context` as kainjow/mustache data (numbers as their JSON text, null as false), for the HTML
// pages, which render with HTML escaping (store.hpp).
kainjow::mustache::data to_mustache_data(const nlohmann::json& context);

} // namespace envlock::templates
