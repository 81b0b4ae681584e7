#include "node/health/kernel_log.hpp"

#include "util/fd.hpp"
#include "util/process.hpp"
#include "util/strings.hpp"

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string_view>
#include <unistd.h>

namespace envlock::node::health {

namespace {

constexpr std::size_t k_xid_message_max = 160;

// The whole of `path` read without blocking; a character device such as /dev/kmsg ends with
// EAGAIN, a recorded file with end of file. Empty with `why` set when it cannot be read.
std::optional<std::string> read_kmsg_file(const std::filesystem::path& path, std::string& why,
                                          bool& denied) {
  util::Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  if (!fd) {
    denied = errno == EPERM || errno == EACCES;
    why = std::string("/dev/kmsg: ") + (errno == ENOENT ? "not found" : std::strerror(errno));
    return std::nullopt;
  }
  std::string text;
  std::array<char, 16384> buf{};
  for (;;) {
    const ssize_t n = ::read(fd.get(), buf.data(), buf.size());
    if (n > 0) {
      text.append(buf.data(), static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0 || errno == EAGAIN) {
      return text;
    }
    if (errno == EPIPE || errno == EINTR) {
      continue; // a record was overwritten while reading: go on with the next
    }
    why = std::string("/dev/kmsg: ") + std::strerror(errno);
    return std::nullopt;
  }
}

// "[ 1234.567890] message" -> seconds and message; the text as is when there is no time.
std::pair<std::optional<double>, std::string_view> split_dmesg_line(std::string_view line) {
  if (line.empty() || line.front() != '[') {
    return {std::nullopt, line};
  }
  const auto close = line.find(']');
  if (close == std::string_view::npos) {
    return {std::nullopt, line};
  }
  const std::string stamp(util::trim(line.substr(1, close - 1)));
  char* end = nullptr;
  const double seconds = std::strtod(stamp.c_str(), &end);
  if (stamp.empty() || end == nullptr || *end != '\0') {
    return {std::nullopt, line};
  }
  return {seconds, util::trim(line.substr(close + 1))};
}

// "6,1234,5678901,-;message" -> seconds and message.
std::pair<std::optional<double>, std::string_view> split_kmsg_line(std::string_view line) {
  const auto semi = line.find(';');
  if (semi == std::string_view::npos) {
    return {std::nullopt, line};
  }
  const auto fields = util::split(line.substr(0, semi), ',');
  std::optional<double> seconds;
  if (fields.size() >= 3) {
    char* end = nullptr;
    const long long micros = std::strtoll(fields[2].c_str(), &end, 10);
    if (!fields[2].empty() && end != nullptr && *end == '\0') {
      seconds = static_cast<double>(micros) / 1e6;
    }
  }
  return {seconds, line.substr(semi + 1)};
}

// The XID of one message, or nothing.
std::optional<XidEvent> xid_of(std::string_view message) {
  const auto at = message.find("NVRM: Xid (");
  if (at == std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view rest = message.substr(at + 11);
  const auto close = rest.find(')');
  if (close == std::string_view::npos) {
    return std::nullopt;
  }
  XidEvent event;
  const std::string_view inside = rest.substr(0, close);
  const auto pci = inside.find("PCI:");
  const std::string_view address = pci == std::string_view::npos ? inside : inside.substr(pci + 4);
  event.pci = util::to_lower(address.substr(0, address.find(' ')));
  std::string_view after = util::trim(rest.substr(close + 1));
  if (after.empty() || after.front() != ':') {
    return std::nullopt;
  }
  after = util::trim(after.substr(1));
  std::size_t digits = 0;
  while (digits < after.size() && digits < 6 && after[digits] >= '0' && after[digits] <= '9') {
    ++digits;
  }
  if (digits == 0) {
    return std::nullopt;
  }
  event.xid = std::strtol(std::string(after.substr(0, digits)).c_str(), nullptr, 10);
  std::string_view text = after.substr(digits);
  if (!text.empty() && text.front() == ',') {
    text.remove_prefix(1);
  }
  text = util::trim(text);
  event.message = std::string(text.substr(0, k_xid_message_max));
  return event;
}

} // namespace

KernelLog read_kernel_log(const std::filesystem::path& root, RunDmesg dmesg) {
  KernelLog log;
  std::string kmsg_why;
  bool kmsg_denied = false;
  if (auto text = read_kmsg_file(root / "dev/kmsg", kmsg_why, kmsg_denied)) {
    log.text = std::move(*text);
    log.source = "/dev/kmsg";
    return log;
  }
  if (dmesg == RunDmesg::no) {
    log.missing = kmsg_why + "; dmesg: not run (offline facts)";
    return log;
  }
  if (!util::find_program("dmesg")) {
    log.missing = kmsg_why + "; dmesg: not in PATH";
    return log;
  }
  auto result = util::run_process({"dmesg"});
  if (!result) {
    log.missing = kmsg_why + "; dmesg: " + result.error().message;
    return log;
  }
  if (result->exit_code != 0) {
    const std::string err(util::trim(result->err));
    log.missing = kmsg_why + "; dmesg: exit status " + std::to_string(result->exit_code) +
                  (err.empty() ? "" : " (" + err.substr(0, err.find('\n')) + ")");
    log.denied = kmsg_denied && (err.find("Operation not permitted") != std::string::npos ||
                                 err.find("Permission denied") != std::string::npos);
    return log;
  }
  log.text = std::move(result->out);
  log.format = KernelLogFormat::dmesg;
  log.source = "dmesg";
  return log;
}

std::vector<XidEvent> parse_xids(const KernelLog& log) {
  std::vector<XidEvent> out;
  std::size_t start = 0;
  const std::string_view text = log.text;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty() || (log.format == KernelLogFormat::kmsg && line.front() == ' ')) {
      continue; // a kmsg record's continuation (SUBSYSTEM=, DEVICE=)
    }
    const auto [seconds, message] =
        log.format == KernelLogFormat::kmsg ? split_kmsg_line(line) : split_dmesg_line(line);
    if (auto event = xid_of(message)) {
      event->seconds = seconds;
      out.push_back(std::move(*event));
    }
  }
  return out;
}

} // namespace envlock::node::health
