#include "verify/run_context.hpp"

#include "util/fs.hpp"
#include "util/key_value.hpp"
#include "util/strings.hpp"
#include "verify/probes/python_env.hpp"

#include <algorithm>
#include <cstdlib>
#include <system_error>

namespace envlock::verify {

namespace fs = std::filesystem;

namespace {

// KEY=VALUE lines, optionally quoted values (Enroot writes them verbatim).
std::map<std::string, std::string> parse_environment(const std::string& text) {
  std::map<std::string, std::string> out;
  util::for_each_key_value(text, [&](std::string_view key, std::string_view value) {
    out[std::string(key)] = std::string(util::unquote(value));
  });
  return out;
}

bool is_dir(const fs::path& path) {
  std::error_code ec;
  return fs::is_directory(path, ec);
}

} // namespace

RunContext::RunContext(const lock::Lock& lock, const VerifyOptions& options)
    : m_lock(lock), m_options(options), m_mode(options.root.empty() ? Mode::live : Mode::offline),
      m_root(options.root.empty() ? fs::path("/") : options.root) {
  if (m_mode == Mode::offline) {
    if (auto text = util::read_file_limited(at("/etc/environment"), 1 << 20)) {
      m_image_env = parse_environment(*text);
    }
  }
  std::vector<std::string> dirs;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(at("/etc/ld.so.conf.d"), ec)) {
    if (entry.path().extension() == ".conf") {
      dirs.push_back(entry.path().string());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  std::vector<std::string> image_dirs;
  for (const auto& conf : dirs) {
    auto text = util::read_file_limited(conf, 1 << 20);
    if (!text) {
      continue;
    }
    for (const auto& raw : util::split(*text, '\n')) {
      const std::string_view line = util::trim(raw);
      if (!line.empty() && line.front() == '/') {
        image_dirs.emplace_back(line);
      }
    }
  }
  for (const char* dir :
       {"/usr/local/cuda/lib64", "/usr/local/cuda/lib", "/lib/x86_64-linux-gnu",
        "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
        "/usr/lib64", "/usr/lib", "/lib64", "/lib", "/usr/local/lib"}) {
    image_dirs.emplace_back(dir);
  }
  for (const auto& dir : image_dirs) {
    fs::path host = at(dir);
    if (is_dir(host) &&
        std::find(m_library_dirs.begin(), m_library_dirs.end(), host) == m_library_dirs.end()) {
      m_library_dirs.push_back(std::move(host));
    }
  }
}

fs::path RunContext::at(std::string_view image_path) const {
  std::string_view rel = image_path;
  while (!rel.empty() && rel.front() == '/') {
    rel.remove_prefix(1);
  }
  return rel.empty() ? m_root : m_root / fs::path(rel);
}

std::string RunContext::shown(const fs::path& host_path) const {
  if (m_mode == Mode::live) {
    return host_path.string();
  }
  const std::string root = m_root.lexically_normal().string();
  const std::string path = host_path.lexically_normal().string();
  const std::string prefix = root.back() == '/' ? root : root + "/";
  if (path.rfind(prefix, 0) == 0) {
    return "/" + path.substr(prefix.size());
  }
  return path;
}

fs::path RunContext::resolve(const fs::path& host_path) const {
  fs::path current = host_path;
  for (int hop = 0; hop < 16; ++hop) {
    std::error_code ec;
    if (!fs::is_symlink(current, ec)) {
      return current;
    }
    const fs::path target = fs::read_symlink(current, ec);
    if (ec) {
      return host_path;
    }
    current = target.is_absolute() ? at(target.string()) : current.parent_path() / target;
  }
  return host_path;
}

std::optional<std::string> RunContext::env(const std::string& name) const {
  if (m_mode == Mode::live) {
    const char* value = std::getenv(name.c_str()); // NOLINT(concurrency-mt-unsafe)
    return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
  }
  const auto it = m_image_env.find(name);
  return it != m_image_env.end() ? std::optional<std::string>(it->second) : std::nullopt;
}

const std::vector<fs::path>& RunContext::library_dirs() const {
  return m_library_dirs;
}

const PythonEnvironment& RunContext::python() const {
  if (!m_python) {
    m_python = std::make_shared<const PythonEnvironment>(find_python_environment(*this));
  }
  return *m_python;
}

std::optional<fs::path> RunContext::find_library(std::string_view file_name) const {
  for (const auto& dir : m_library_dirs) {
    fs::path candidate = dir / fs::path(file_name);
    std::error_code ec;
    if (fs::exists(candidate, ec)) {
      return candidate;
    }
  }
  return std::nullopt;
}

} // namespace envlock::verify
