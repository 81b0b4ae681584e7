#include "report/templates.hpp"

#include <cstddef>
#include <utility>

namespace envlock::report {

namespace generated {
// Defined in the build's generated/templates.cpp (cmake/EmbedTemplates.cmake).
extern const std::pair<std::string_view, std::string_view> k_templates[];
extern const std::size_t k_template_count;
} // namespace generated

Result<std::string_view> embedded_template(std::string_view name) {
  for (std::size_t i = 0; i < generated::k_template_count; ++i) {
    if (generated::k_templates[i].first == name) { // NOLINT
      return generated::k_templates[i].second;     // NOLINT
    }
  }
  return env_error("template '" + std::string(name) + "' is not built into envlock");
}

std::string collapse_blank_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t newlines = 0;
  for (const char c : text) {
    newlines = c == '\n' ? newlines + 1 : 0;
    if (newlines <= 2) {
      out += c;
    }
  }
  return out;
}

Result<std::string> render_template(std::string_view name, const kainjow::mustache::data& data) {
  ENVLOCK_TRY_ASSIGN(const std::string_view text, embedded_template(name));
  kainjow::mustache::mustache tmpl{std::string(text)};
  if (!tmpl.is_valid()) {
    return env_error("template '" + std::string(name) + "': " + tmpl.error_message());
  }
  const std::string out = tmpl.render(data);
  if (!tmpl.is_valid()) {
    return env_error("template '" + std::string(name) + "': " + tmpl.error_message());
  }
  return collapse_blank_lines(out);
}

} // namespace envlock::report
