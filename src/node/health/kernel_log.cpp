#include "node/health/kernel_log.hpp"

#include "util/fd.hpp"
#include "util/process.hpp"
#include "util/strings.hpp"

#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
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

// Whether `text` starts with `count` hexadecimal digits.
bool hex_digits(std::string_view text, std::size_t count) {
  if (text.size() < count) {
    return false;
  }
  for (std::size_t i = 0; i < count; ++i) {
    if (std::isxdigit(static_cast<unsigned char>(text[i])) == 0) {
      return false;
    }
  }
  return true;
}

// The length of the PCI address at the start of `text` as the driver writes it in an XID
// ("0000:3b:00" or "00000000:3b:00", a function ".0" allowed); 0 when there is none.
std::size_t pci_address_length(std::string_view text) {
  for (const std::size_t domain : {std::size_t{8}, std::size_t{4}}) {
    if (hex_digits(text, domain) && text.size() > domain && text[domain] == ':' &&
        hex_digits(text.substr(domain + 1), 2) && text.size() > domain + 3 &&
        text[domain + 3] == ':' && hex_digits(text.substr(domain + 4), 2)) {
      std::size_t length = domain + 6;
      if (text.size() > length + 1 && text[length] == '.' &&
          hex_digits(text.substr(length + 1), 1)) {
        length += 2;
      }
      return length;
    }
  }
  return 0;
}

// The first `max` bytes of `text`, cut before a character, never inside one.
std::string_view utf8_prefix(std::string_view text, std::size_t max) {
  if (text.size() <= max) {
    return text;
  }
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0U) == 0x80U) {
    --cut;
  }
  return text.substr(0, cut);
}

// A kernel record of /dev/kmsg, "PRIORITY,SEQUENCE,MICROSECONDS,FLAGS[,...];MESSAGE": the
// facility (PRIORITY / 8), the time and the message; nothing when the line is not one.
struct Record {
  unsigned facility = 0;
  std::optional<double> seconds;
  std::string_view message;
};

std::optional<unsigned long long> decimal(std::string_view text) {
  if (text.empty() || text.size() > 19 ||
      text.find_first_not_of("0123456789") != std::string_view::npos) {
    return std::nullopt;
  }
  return std::strtoull(std::string(text).c_str(), nullptr, 10);
}

std::optional<Record> kmsg_record(std::string_view line) {
  const auto semi = line.find(';');
  if (semi == std::string_view::npos) {
    return std::nullopt;
  }
  const auto fields = util::split(line.substr(0, semi), ',');
  if (fields.size() < 4) {
    return std::nullopt;
  }
  const auto priority = decimal(fields[0]);
  if (!priority || !decimal(fields[1])) {
    return std::nullopt;
  }
  Record r;
  r.facility = static_cast<unsigned>(*priority >> 3U);
  if (const auto micros = decimal(fields[2])) {
    r.seconds = static_cast<double>(*micros) / 1e6;
  }
  r.message = line.substr(semi + 1);
  return r;
}

// A line of `dmesg --decode`, "FACILITY:LEVEL : [SECONDS] MESSAGE" ("kern  :err   : [
// 5.234567] NVRM: ..."); nothing when the line does not start so (a record's continuation,
// indented by dmesg).
std::optional<Record> decoded_record(std::string_view line) {
  const auto colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0 || line.front() == ' ') {
    return std::nullopt;
  }
  const std::string_view facility = util::trim(line.substr(0, colon));
  const auto second = line.find(':', colon + 1);
  if (second == std::string_view::npos || facility.find(' ') != std::string_view::npos) {
    return std::nullopt;
  }
  Record r;
  r.facility = facility == "kern" ? 0U : 1U; // any other facility is not the kernel's
  std::string_view rest = line.substr(second + 1);
  if (!rest.empty() && rest.front() == ' ') {
    rest.remove_prefix(1);
  }
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close != std::string_view::npos) {
      const std::string stamp(util::trim(rest.substr(1, close - 1)));
      char* end = nullptr;
      const double seconds = std::strtod(stamp.c_str(), &end);
      if (!stamp.empty() && end != nullptr && *end == '\0' && std::isfinite(seconds)) {
        r.seconds = seconds;
      }
      rest = rest.substr(close + 1);
      if (!rest.empty() && rest.front() == ' ') {
        rest.remove_prefix(1);
      }
    }
  }
  r.message = rest;
  return r;
}

// The XID of one kernel message, or nothing: the message itself must begin with the driver's
// "NVRM: Xid (PCI:DOMAIN:BUS:DEVICE): NUMBER" (the older drivers' "NVRM: Xid (DOMAIN:BUS:DEVICE)"
// too). Text of the driver's form anywhere else in a message (a crashing program's file name in
// a segfault line) is not an XID.
std::optional<XidEvent> xid_of(std::string_view message) {
  constexpr std::string_view prefix = "NVRM: Xid (";
  if (message.substr(0, prefix.size()) != prefix) {
    return std::nullopt;
  }
  std::string_view rest = message.substr(prefix.size());
  if (rest.substr(0, 4) == "PCI:") {
    rest.remove_prefix(4);
  }
  const std::size_t length = pci_address_length(rest);
  if (length == 0) {
    return std::nullopt;
  }
  // After the address, a MIG instance may follow ("0000:3b:00 GPU-I:02"), then "): ".
  std::size_t close = length;
  if (rest.substr(close, 1) == " ") {
    close = rest.find(')', length);
    if (close == std::string_view::npos || close > length + 40) {
      return std::nullopt;
    }
  }
  if (rest.substr(close, 3) != "): ") {
    return std::nullopt;
  }
  XidEvent event;
  event.pci = util::to_lower(rest.substr(0, length));
  if (const auto dot = event.pci.find('.'); dot != std::string::npos) {
    event.pci.resize(dot);
  }
  if (event.pci.size() == 14) { // an 8-digit domain, as sysfs never writes it
    event.pci = event.pci.substr(4);
  }
  std::string_view after = rest.substr(close + 3);
  std::size_t digits = 0;
  while (digits < after.size() && after[digits] >= '0' && after[digits] <= '9') {
    ++digits;
  }
  if (digits == 0 || digits > 6 || (digits < after.size() && after[digits] != ',')) {
    return std::nullopt;
  }
  event.xid = std::strtol(std::string(after.substr(0, digits)).c_str(), nullptr, 10);
  std::string_view text = after.substr(digits);
  if (!text.empty() && text.front() == ',') {
    text.remove_prefix(1);
  }
  text = util::trim(text);
  event.message = util::escape_invalid_utf8(utf8_prefix(text, k_xid_message_max));
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
  // --decode: each record with its facility ("kern  :err   : [ 5.2] ..."), so that the
  // kernel's own records can be told from what programs wrote.
  auto result = util::run_process({"dmesg", "--decode"});
  if (!result) {
    log.missing = kmsg_why + "; dmesg: " + util::escape_invalid_utf8(result.error().message);
    return log;
  }
  if (result->exit_code != 0) {
    const std::string err(util::trim(result->err));
    log.missing =
        kmsg_why + "; dmesg: exit status " + std::to_string(result->exit_code) +
        (err.empty() ? "" : " (" + util::escape_invalid_utf8(err.substr(0, err.find('\n'))) + ")");
    // Refused to a reader that is not root: nothing is known of the node. Refused to root (no
    // CAP_SYSLOG) is a kernel log that cannot be read, which fails the rule.
    log.denied = kmsg_denied && ::geteuid() != 0 &&
                 (err.find("Operation not permitted") != std::string::npos ||
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
    // The kernel's own records only (facility 0, kern): a program's write to /dev/kmsg is
    // given facility user whatever prefix it writes; a continuation line (" SUBSYSTEM=...") is
    // no record.
    const auto record =
        log.format == KernelLogFormat::kmsg ? kmsg_record(line) : decoded_record(line);
    if (!record || record->facility != 0) {
      continue;
    }
    if (auto event = xid_of(record->message)) {
      event->seconds = record->seconds;
      out.push_back(std::move(*event));
    }
  }
  return out;
}

} // namespace envlock::node::health
