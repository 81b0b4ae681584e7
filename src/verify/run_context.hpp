// The state one verification run shares between its probes: the lock, the options, and where
// the checked file system lives (this system, or an unpacked image under --root).
#pragma once

#include "lock/lock.hpp"
#include "verify/check.hpp"
#include "verify/options.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::verify {

struct PythonEnvironment; // probes/python_env.hpp

// live: the probes may load the image's libraries (this is the running container or node).
// offline: --root names an unpacked image or a mounted squashfs; nothing in it is executed.
enum class Mode { live, offline };

class RunContext {
public:
  RunContext(const lock::Lock& lock, const VerifyOptions& options);

  [[nodiscard]] const lock::Lock& lock() const { return m_lock; }
  [[nodiscard]] const VerifyOptions& options() const { return m_options; }
  [[nodiscard]] Mode mode() const { return m_mode; }

  // The host path of `image_path` (an absolute path as seen inside the image).
  [[nodiscard]] std::filesystem::path at(std::string_view image_path) const;
  // The image path of a host path below the root ("/usr/lib/..."); other paths as they are.
  [[nodiscard]] std::string shown(const std::filesystem::path& host_path) const;
  // Follows symbolic links inside the root (an absolute link target stays inside it); the input
  // itself when it is no link or the chain is broken or longer than 16 links.
  [[nodiscard]] std::filesystem::path resolve(const std::filesystem::path& host_path) const;
  // A variable of the checked environment: ours when live, the image's /etc/environment (Enroot
  // writes the image's ENV there) when offline.
  [[nodiscard]] std::optional<std::string> env(const std::string& name) const;
  // The folders the dynamic linker searches in the image: /etc/ld.so.conf.d/*.conf entries, then
  // the usual library folders and CUDA's; host paths, existing ones only.
  [[nodiscard]] const std::vector<std::filesystem::path>& library_dirs() const;
  // The first library folder holding `file_name`, as a host path.
  [[nodiscard]] std::optional<std::filesystem::path> find_library(std::string_view file_name) const;
  // The checked system's Python environment (find_python_environment), found on the first call;
  // every check that looks at Python uses this one.
  [[nodiscard]] const PythonEnvironment& python() const;

private:
  const lock::Lock& m_lock;
  const VerifyOptions& m_options;
  Mode m_mode;
  std::filesystem::path m_root;
  std::map<std::string, std::string> m_image_env;
  std::vector<std::filesystem::path> m_library_dirs;
  mutable std::shared_ptr<const PythonEnvironment> m_python;
};

} // namespace envlock::verify
