// The template store: templates/*.mustache (Dockerfiles, batch scripts, the diff and handover
// pages), found and rendered the same way by every module: strictly, except the HTML page. A
// template NAME is looked for, in order: <dir of the executable>/../share/envlock/templates/NAME
// (an installed envlock; `cmake
// --install` puts them there, and an operator may edit them), templates/NAME of the source tree
// envlock was built from (a build folder), then the copy built into the executable.
#pragma once

#include "util/result.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace envlock::templates {

// A template's text and where it came from: its path, or "built-in NAME".
struct Template {
  std::string origin;
  std::string text;
};

// templates/NAME, found in the order above. Fails with an environment error when it is nowhere
// (or cannot be read).
Result<Template> find_template(std::string_view name);

// The text of templates/NAME built into the executable; an environment error when it is not.
Result<std::string_view> embedded_template(std::string_view name);

// `text` with every run of blank lines cut to one (sections that render nothing leave blank
// lines behind in kainjow/mustache).
std::string collapse_blank_lines(std::string_view text);

// Renders templates/NAME (find_template) strictly with `context` (strict_mustache.hpp: values as
// they are, every name the template uses must be in the context), then collapses blank lines:
// everything envlock renders but HTML. Fails with an environment error when the template is
// missing, and with "ORIGIN: MESSAGE" when it does not parse or names what the context lacks
// ("ORIGIN: unknown name 'resluts'; did you mean 'results'?").
Result<std::string> render_template(std::string_view name, const nlohmann::json& context);

// Renders the HTML page templates/NAME with `context`, every value HTML-escaped ({{{x}}} not),
// a name the context lacks rendering nothing, then collapses blank lines. Fails with an
// environment error naming the template when it is missing or does not parse.
Result<std::string> render_html_template(std::string_view name, const nlohmann::json& context);

} // namespace envlock::templates
