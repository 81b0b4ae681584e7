#include "template/store.hpp"

#include "template/strict_mustache.hpp"
#include "util/fs.hpp"

#include <cstddef>
#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

namespace envlock::templates {

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

Result<Template> find_template(std::string_view name) {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path().parent_path() / "share" / "envlock" / "templates" /
                         name);
  }
  candidates.push_back(fs::path(ENVLOCK_SOURCE_DIR) / "templates" / name);
  for (const auto& path : candidates) {
    if (fs::is_regular_file(path, ec)) {
      ENVLOCK_TRY_ASSIGN(std::string text, util::read_file_limited(path, std::uintmax_t{1} << 20));
      return Template{path.string(), std::move(text)};
    }
  }
  ENVLOCK_TRY_ASSIGN(const std::string_view text, embedded_template(name));
  return Template{"built-in " + std::string(name), std::string(text)};
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

Result<std::string> render_template(std::string_view name, const nlohmann::json& context) {
  ENVLOCK_TRY_ASSIGN(const Template found, find_template(name));
  ENVLOCK_TRY_ASSIGN(const std::string out, render_mustache(found.text, found.origin, context));
  return collapse_blank_lines(out);
}

Result<std::string> render_html_template(std::string_view name, const nlohmann::json& context) {
  ENVLOCK_TRY_ASSIGN(const Template found, find_template(name));
  kainjow::mustache::mustache tmpl{found.text};
  if (!tmpl.is_valid()) {
    return env_error("template '" + std::string(name) + "': " + tmpl.error_message());
  }
  const std::string out = tmpl.render(to_mustache_data(context));
  if (!tmpl.is_valid()) {
    return env_error("template '" + std::string(name) + "': " + tmpl.error_message());
  }
  return collapse_blank_lines(out);
}

} // namespace envlock::templates
