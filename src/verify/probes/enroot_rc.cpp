#include "verify/probes/enroot_rc.hpp"

#include "util/fs.hpp"
#include "util/strings.hpp"

namespace envlock::verify {

std::map<std::string, std::string> parse_enroot_rc_labels(std::string_view text) {
  std::map<std::string, std::string> labels;
  for (const auto& raw : util::split(text, '\n')) {
    const std::string_view line = util::trim(raw);
    if (line.empty() || line.front() != '#') {
      break;
    }
    const std::string_view body = util::trim(line.substr(1));
    if (body.rfind("enroot-provenance:", 0) == 0) {
      labels["enroot-provenance"] = std::string(util::trim(body.substr(18)));
      continue;
    }
    const auto space = body.find(' ');
    if (space == std::string_view::npos) {
      labels[std::string(body)] = "";
    } else {
      labels[std::string(body.substr(0, space))] = std::string(util::trim(body.substr(space + 1)));
    }
  }
  return labels;
}

std::map<std::string, std::string> image_labels(const RunContext& context) {
  auto text = context.read(context.at("/etc/rc"), 1 << 20);
  return text ? parse_enroot_rc_labels(*text) : std::map<std::string, std::string>{};
}

} // namespace envlock::verify
