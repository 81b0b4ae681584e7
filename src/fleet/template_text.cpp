#include "fleet/template_text.hpp"

#include "report/templates.hpp"
#include "util/fs.hpp"

#include <filesystem>
#include <system_error>
#include <vector>

namespace envlock::fleet {

namespace fs = std::filesystem;

namespace {

Result<std::string> template_source(const std::string& name) {
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
      return util::read_file_limited(path, std::uintmax_t{1} << 20);
    }
  }
  ENVLOCK_TRY_ASSIGN(const std::string_view text, report::embedded_template(name));
  return std::string(text);
}

} // namespace

Result<std::string> render_fleet_template(const std::string& name,
                                          const kainjow::mustache::data& data) {
  ENVLOCK_TRY_ASSIGN(const std::string text, template_source(name));
  kainjow::mustache::mustache tmpl{text};
  if (!tmpl.is_valid()) {
    return env_error("template '" + name + "': " + tmpl.error_message());
  }
  const std::string out = tmpl.render(data);
  if (!tmpl.is_valid()) {
    return env_error("template '" + name + "': " + tmpl.error_message());
  }
  return report::collapse_blank_lines(out);
}

} // namespace envlock::fleet
