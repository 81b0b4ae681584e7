#include "squashfs/enroot_files.hpp"

#include "squashfs/bash_quote.hpp"
#include "squashfs/dir_fd.hpp"
#include "util/strings.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace envlock::squashfs {

namespace {

constexpr unsigned k_file_mode = 0644;
constexpr unsigned k_dir_mode = 0755;

std::string quote_all(const std::vector<std::string>& words, lock::EnrootLocale locale) {
  std::vector<std::string> quoted;
  quoted.reserve(words.size());
  for (const auto& w : words) {
    quoted.push_back(bash_quote(w, locale));
  }
  return util::join(quoted, " ");
}

// Creates `/etc` or each folder of the working directory as a folder of Enroot's top layer.
Result<util::Fd> make_top_layer_dir(int root, const std::vector<std::string>& parts) {
  auto dup = ::openat(root, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dup < 0) {
    return env_error(std::string("rootfs: cannot open: ") + std::strerror(errno));
  }
  util::Fd dir(dup);
  std::string display;
  for (const auto& part : parts) {
    display += "/" + part;
    ENVLOCK_TRY_ASSIGN(util::Fd sub, ensure_dir_at(dir.get(), part, display));
    ENVLOCK_TRY(chmod_at(dir.get(), part, k_dir_mode, display));
    dir = std::move(sub);
  }
  return dir;
}

Status write_file_at(int dir, const std::string& name, const std::string& content) {
  const std::string display = "/etc/" + name;
  ENVLOCK_TRY(remove_at(dir, name, display));
  const int fd =
      ::openat(dir, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) {
    return env_error(display + ": cannot create: " + std::strerror(errno));
  }
  util::Fd file(fd);
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) {
        continue;
      }
      return env_error(display + ": cannot write: " + std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, k_file_mode) != 0) {
    return env_error(display + ": cannot change mode: " + std::strerror(errno));
  }
  return {};
}

} // namespace

std::string render_rc(const ImageConfig& config, lock::EnrootLocale locale) {
  std::string out;
  for (const auto& [key, value] : config.labels) {
    out += "# " + key + " " + util::replace_all(value, "\n", " ") + "\n";
  }
  if (!out.empty()) {
    out += "\n";
  }
  const std::string workdir = config.working_dir.empty() ? "/" : config.working_dir;
  std::vector<std::string> cmd = config.cmd;
  if (config.entrypoint.empty() && cmd.empty()) {
    cmd = {"/bin/sh"};
  }
  const std::string entrypoint = quote_all(config.entrypoint, locale);
  out += "mkdir -p \"" + workdir + "\" 2> /dev/null\n";
  out += "cd \"" + workdir + "\" && unset OLDPWD || exit 1\n";
  out += "\n";
  out += "if [ -s /etc/rc.local ]; then\n";
  out += "    . /etc/rc.local\n";
  out += "fi\n";
  out += "\n";
  out += "if [ $# -gt 0 ]; then\n";
  out += "    exec " + entrypoint + " \"$@\"\n";
  out += "else\n";
  out += "    exec " + entrypoint + " " + quote_all(cmd, locale) + "\n";
  out += "fi\n";
  return out;
}

std::string render_environment(const ImageConfig& config) {
  std::string out;
  for (const auto& line : config.env) {
    out += line + "\n";
  }
  return out;
}

std::string render_fstab(const ImageConfig& config) {
  std::string out;
  for (const auto& volume : config.volumes) {
    out += "${ENROOT_ROOTFS}" + volume + " " + volume + " none x-create=dir,bind,rw,nosuid,nodev\n";
  }
  return out;
}

std::string render_rc_local() {
  return "# This file is sourced by /etc/rc when the container starts.\n"
         "# It can be used to manipulate the entrypoint or the command of the container.\n";
}

bool is_relative_workdir(const ImageConfig& config) {
  return !config.working_dir.empty() && config.working_dir.front() != '/';
}

std::optional<std::string> workdir_warning(const ImageConfig& config) {
  if (!is_relative_workdir(config)) {
    return std::nullopt;
  }
  return "image config: WorkingDir '" + config.working_dir +
         "' is relative; as Enroot 4.1.2 does, no folder is created in the image (/etc/rc "
         "creates it when the container starts, relative to the folder it starts in)";
}

Status write_enroot_files(int root, const ImageConfig& config, lock::EnrootLocale locale) {
  if (::fchmod(root, k_dir_mode) != 0) {
    return env_error(std::string("rootfs: cannot change mode: ") + std::strerror(errno));
  }
  ENVLOCK_TRY_ASSIGN(const util::Fd etc, make_top_layer_dir(root, {"etc"}));
  ENVLOCK_TRY(write_file_at(etc.get(), "fstab", render_fstab(config)));
  ENVLOCK_TRY(write_file_at(etc.get(), "environment", render_environment(config)));
  ENVLOCK_TRY(write_file_at(etc.get(), "rc", render_rc(config, locale)));
  std::vector<std::string> parts;
  // Enroot runs `mkdir -p "${rootfs}${workdir}"`: a relative WorkingDir lands beside the rootfs.
  const auto inside = is_relative_workdir(config) ? std::vector<std::string>()
                                                  : util::split(config.working_dir, '/');
  for (const auto& part : inside) {
    if (part == "..") {
      return input_error("image config: WorkingDir '" + config.working_dir + "' leaves the rootfs");
    }
    if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
  }
  ENVLOCK_TRY(make_top_layer_dir(root, parts));
  ENVLOCK_TRY(write_file_at(etc.get(), "rc.local", render_rc_local()));
  return {};
}

} // namespace envlock::squashfs
