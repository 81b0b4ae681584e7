// The state one verification run shares between its probes: the lock, the options, and where
// the checked file system lives (this system, or an unpacked image under --root).
#pragma once

#include "lock/lock.hpp"
#include "util/fd.hpp"
#include "util/result.hpp"
#include "util/root_dir.hpp"
#include "verify/check.hpp"
#include "verify/options.hpp"

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/stat.h>
#include <vector>

namespace envlock::verify {

struct PythonEnvironment; // probes/python_env.hpp

// live: the probes may load the image's libraries (this is the running container or node).
// offline: --root names an unpacked image or a mounted squashfs; nothing in it is executed.
enum class Mode { live, offline };

// Every file of the checked system is reached through the context. Offline, a path is resolved
// inside the root as a chroot into it would resolve it (util::RootDir): links in the image,
// absolute or with "..", never lead out of it, and ".." stops at the root. Live, the root is "/".
// The probes pass host paths around (from at(), or built from one by appending names); the
// context maps them back into the tree, so "SITE/../../etc/shadow" stays inside it too.
class RunContext {
public:
  // Fails when --root cannot be opened as a folder.
  static Result<RunContext> create(const lock::Lock& lock, const VerifyOptions& options);

  [[nodiscard]] const lock::Lock& lock() const { return m_lock; }
  [[nodiscard]] const VerifyOptions& options() const { return m_options; }
  [[nodiscard]] Mode mode() const { return m_mode; }

  // The host path of `image_path` (an absolute path as seen inside the image).
  [[nodiscard]] std::filesystem::path at(std::string_view image_path) const;
  // A folder the user named (--site-packages): live, as given; offline, a host path below the
  // root is that one, and any other path is the image's ("/usr/lib/python3/dist-packages").
  [[nodiscard]] std::filesystem::path given_path(const std::filesystem::path& path) const;
  // The image path of a host path below the root ("/usr/lib/..."); other paths as they are.
  [[nodiscard]] std::string shown(const std::filesystem::path& host_path) const;
  // The host path of the file `host_path` leads to, every link followed inside the root; the
  // input itself when a link is broken or loops.
  [[nodiscard]] std::filesystem::path resolve(const std::filesystem::path& host_path) const;

  // stat() inside the root; nothing when the path does not lead to a file.
  [[nodiscard]] std::optional<struct stat> stat(const std::filesystem::path& host_path) const;
  [[nodiscard]] bool is_dir(const std::filesystem::path& host_path) const;
  [[nodiscard]] bool is_file(const std::filesystem::path& host_path) const; // a regular file
  // A regular file opened for reading; errors name the shown path: "/etc/rc: is a FIFO, not a
  // regular file", "PATH: No such file or directory".
  [[nodiscard]] Result<util::Fd> open_regular(const std::filesystem::path& host_path) const;
  // The whole of a regular file of at most `limit` bytes ("PATH: larger than LIMIT bytes").
  [[nodiscard]] Result<std::string> read(const std::filesystem::path& host_path,
                                         std::uintmax_t limit) const;
  // Whether an error of open_regular() or read() is that nothing is there (ENOENT, ENOTDIR).
  [[nodiscard]] bool is_missing(const std::filesystem::path& host_path) const;
  // A folder's entries sorted by name (their modes after following links inside the root);
  // empty when it is no folder.
  [[nodiscard]] std::vector<util::RootEntry> list(const std::filesystem::path& host_path) const;

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
  // What the context could not read while setting up (/etc/environment, an ld.so.conf.d file
  // that is no regular file or too large), for the report's notes.
  [[nodiscard]] const std::vector<std::string>& warnings() const { return m_warnings; }

private:
  RunContext(const lock::Lock& lock, const VerifyOptions& options, std::filesystem::path root,
             util::RootDir tree);
  // The path inside the tree a host path stands for.
  [[nodiscard]] std::string inside(const std::filesystem::path& host_path) const;

  const lock::Lock& m_lock;
  const VerifyOptions& m_options;
  Mode m_mode;
  std::filesystem::path m_root;
  std::shared_ptr<const util::RootDir> m_tree;
  std::map<std::string, std::string> m_image_env;
  std::vector<std::filesystem::path> m_library_dirs;
  std::vector<std::string> m_warnings;
  mutable std::shared_ptr<const PythonEnvironment> m_python;
};

} // namespace envlock::verify
