#include "squashfs/enroot_files.hpp"

#include "squashfs/dir_fd.hpp"
#include "util/strings.hpp"

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace envlock::squashfs {

namespace {

constexpr unsigned k_file_mode = 0644;
constexpr unsigned k_dir_mode = 0755;

bool needs_ansi_c_quoting(std::string_view word) {
  for (const char c : word) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      return true;
    }
  }
  return false;
}

std::string ansi_c_quote(std::string_view word) {
  std::string out = "$'";
  for (const char c : word) {
    switch (c) {
    case '\a':
      out += "\\a";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\x1b':
      out += "\\E";
      break;
    case '\f':
      out += "\\f";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\v':
      out += "\\v";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\'':
      out += "\\'";
      break;
    default: {
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20 || u == 0x7f) {
        std::array<char, 8> buf{};
        (void)std::snprintf(buf.data(), buf.size(), "\\%03o", u);
        out += buf.data();
      } else {
        out += c;
      }
    }
    }
  }
  return out + "'";
}

std::string quote_all(const std::vector<std::string>& words) {
  std::vector<std::string> quoted;
  quoted.reserve(words.size());
  for (const auto& w : words) {
    quoted.push_back(bash_quote(w));
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

std::string bash_quote(std::string_view word) {
  if (needs_ansi_c_quoting(word)) {
    return ansi_c_quote(word);
  }
  return "'" + util::replace_all(std::string(word), "'", "'\\''") + "'";
}

std::string render_rc(const ImageConfig& config) {
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
  const std::string entrypoint = quote_all(config.entrypoint);
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
  out += "    exec " + entrypoint + " " + quote_all(cmd) + "\n";
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

Status write_enroot_files(int root, const ImageConfig& config) {
  if (::fchmod(root, k_dir_mode) != 0) {
    return env_error(std::string("rootfs: cannot change mode: ") + std::strerror(errno));
  }
  ENVLOCK_TRY_ASSIGN(const util::Fd etc, make_top_layer_dir(root, {"etc"}));
  ENVLOCK_TRY(write_file_at(etc.get(), "fstab", render_fstab(config)));
  ENVLOCK_TRY(write_file_at(etc.get(), "environment", render_environment(config)));
  ENVLOCK_TRY(write_file_at(etc.get(), "rc", render_rc(config)));
  std::vector<std::string> parts;
  for (const auto& part : util::split(config.working_dir, '/')) {
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
