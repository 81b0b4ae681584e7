#include "build/render.hpp"

#include "build/strict_mustache.hpp"
#include "report/templates.hpp"
#include "util/fs.hpp"

#include <system_error>

namespace envlock::build {

namespace fs = std::filesystem;

namespace {

// <dir of the executable>/../share/envlock/templates, or nothing when /proc/self/exe is unreadable.
std::optional<fs::path> installed_templates_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) {
    return std::nullopt;
  }
  return exe.parent_path().parent_path() / "share" / "envlock" / "templates";
}

bool is_file(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec);
}

} // namespace

Result<Template> default_template() {
  std::vector<fs::path> candidates;
  if (const auto installed = installed_templates_dir()) {
    candidates.push_back(*installed / k_dockerfile_template);
  }
  candidates.push_back(fs::path(ENVLOCK_SOURCE_DIR) / "templates" / k_dockerfile_template);
  for (const auto& path : candidates) {
    if (is_file(path)) {
      return read_template(path);
    }
  }
  ENVLOCK_TRY_ASSIGN(const std::string_view text, report::embedded_template(k_dockerfile_template));
  return Template{std::string("built-in ") + k_dockerfile_template, std::string(text)};
}

Result<Template> read_template(const fs::path& path) {
  ENVLOCK_TRY_ASSIGN(std::string text, util::read_file_limited(path, std::uintmax_t{1} << 20));
  return Template{path.string(), std::move(text)};
}

Result<std::string> render_dockerfile(const lock::Lock& lock, const std::string& origin,
                                      const Template& tmpl, Verifier verifier) {
  ENVLOCK_TRY_ASSIGN(const nlohmann::json context, template_context(lock, origin, verifier));
  return render_mustache(tmpl.text, tmpl.origin, context);
}

Result<std::string> render_file(const RenderRequest& request) {
  const std::string origin = request.lock_path.string();
  std::error_code ec;
  if (!fs::exists(request.lock_path, ec)) {
    return input_error(origin + ": no such file; run 'envlock lock' to create it");
  }
  ENVLOCK_TRY_ASSIGN(const lock::Lock lock, lock::read_lock(request.lock_path));
  ENVLOCK_TRY_ASSIGN(const Template tmpl, request.template_path
                                              ? read_template(*request.template_path)
                                              : default_template());
  return render_dockerfile(lock, origin, tmpl, request.verifier);
}

} // namespace envlock::build
