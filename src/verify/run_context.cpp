#include "verify/run_context.hpp"

#include "util/fs.hpp"
#include "util/key_value.hpp"
#include "util/strings.hpp"
#include "verify/probes/python_env.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
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

// Limits on what the context reads for itself.
constexpr std::uintmax_t k_environment_limit = 1 << 20;
constexpr std::uintmax_t k_ld_conf_limit = 1 << 20;
constexpr std::size_t k_ld_conf_files = 1000;

} // namespace

Result<RunContext> RunContext::create(const lock::Lock& lock, const VerifyOptions& options) {
  fs::path root = "/";
  if (!options.root.empty()) {
    std::error_code ec;
    root = fs::canonical(options.root, ec);
    if (ec) {
      return input_error("--root " + options.root.string() + ": " + ec.message());
    }
  }
  auto tree = util::RootDir::open(root);
  if (!tree) {
    return with_prefix(std::move(tree).error(), "--root: ");
  }
  return RunContext(lock, options, std::move(root), std::move(*tree));
}

RunContext::RunContext(const lock::Lock& lock, const VerifyOptions& options, fs::path root,
                       util::RootDir tree)
    : m_lock(lock), m_options(options), m_mode(options.root.empty() ? Mode::live : Mode::offline),
      m_root(std::move(root)), m_tree(std::make_shared<const util::RootDir>(std::move(tree))) {
  if (m_mode == Mode::offline) {
    auto text = read(at("/etc/environment"), k_environment_limit);
    if (text) {
      m_image_env = parse_environment(*text);
    } else if (!is_missing(at("/etc/environment"))) {
      m_warnings.push_back(text.error().message + "; the image's variables are not known");
    }
  }
  std::vector<std::string> image_dirs;
  std::size_t conf_files = 0;
  for (const auto& entry : list(at("/etc/ld.so.conf.d"))) {
    if (!entry.name.ends_with(".conf") || entry.name.size() == 5) {
      continue;
    }
    if (++conf_files > k_ld_conf_files) {
      m_warnings.push_back("/etc/ld.so.conf.d: more than " + std::to_string(k_ld_conf_files) +
                           " .conf files; the rest are not read");
      break;
    }
    const fs::path conf = at("/etc/ld.so.conf.d/" + entry.name);
    auto text = read(conf, k_ld_conf_limit);
    if (!text) {
      if (!is_missing(conf)) {
        m_warnings.push_back(text.error().message);
      }
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

fs::path RunContext::given_path(const fs::path& path) const {
  if (m_mode == Mode::live) {
    return path;
  }
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  const std::string& root = m_root.native();
  if (!ec && absolute.native().starts_with(root) && absolute.native().size() > root.size() &&
      absolute.native()[root.size()] == '/') {
    return absolute;
  }
  return at(path.string());
}

std::string RunContext::inside(const fs::path& host_path) const {
  const std::string& path = host_path.native();
  const std::string& root = m_root.native();
  if (root == "/") {
    // Live: the process's own paths, a relative one from the working folder.
    std::error_code ec;
    return host_path.is_absolute() ? path : fs::absolute(host_path, ec).native();
  }
  if (path == root) {
    return "/";
  }
  if (path.size() > root.size() && path.starts_with(root) && path[root.size()] == '/') {
    return path.substr(root.size());
  }
  // Not built from at(): a path the user gave (--site-packages), taken as the image's.
  return path;
}

std::string RunContext::shown(const fs::path& host_path) const {
  if (m_mode == Mode::live) {
    return host_path.string();
  }
  return fs::path(inside(host_path)).lexically_normal().string();
}

fs::path RunContext::resolve(const fs::path& host_path) const {
  auto real = m_tree->real_path(inside(host_path));
  return real ? at(*real) : host_path;
}

std::optional<struct stat> RunContext::stat(const fs::path& host_path) const {
  auto st = m_tree->stat(inside(host_path));
  return st ? std::optional<struct stat>(*st) : std::nullopt;
}

bool RunContext::is_dir(const fs::path& host_path) const {
  const auto st = stat(host_path);
  return st && S_ISDIR(st->st_mode);
}

bool RunContext::is_file(const fs::path& host_path) const {
  const auto st = stat(host_path);
  return st && S_ISREG(st->st_mode);
}

Result<util::Fd> RunContext::open_regular(const fs::path& host_path) const {
  auto fd = m_tree->open_regular(inside(host_path));
  if (!fd && m_mode == Mode::offline) {
    // The message names the path as the image sees it, not as the resolver was given it.
    const std::string given = inside(host_path);
    std::string& message = fd.error().message;
    if (message.starts_with(given)) {
      message.replace(0, given.size(), shown(host_path));
    }
  }
  return fd;
}

Result<std::string> RunContext::read(const fs::path& host_path, std::uintmax_t limit) const {
  ENVLOCK_TRY_ASSIGN(const util::Fd fd, open_regular(host_path));
  return util::read_open_file(fd.get(), shown(host_path), limit);
}

bool RunContext::is_missing(const fs::path& host_path) const {
  auto st = m_tree->stat(inside(host_path));
  return !st && (st.error().message.ends_with(std::strerror(ENOENT)) ||
                 st.error().message.ends_with(std::strerror(ENOTDIR)));
}

std::vector<util::RootEntry> RunContext::list(const fs::path& host_path) const {
  auto entries = m_tree->list(inside(host_path));
  return entries ? std::move(*entries) : std::vector<util::RootEntry>{};
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
    if (stat(candidate) || !is_missing(candidate)) {
      return candidate; // there, if perhaps no regular file: the probe says what it is
    }
  }
  return std::nullopt;
}

} // namespace envlock::verify
