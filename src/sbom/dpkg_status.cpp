#include "sbom/dpkg_status.hpp"

#include "node/os_release.hpp"
#include "sbom/purl.hpp"
#include "util/strings.hpp"

#include <cerrno>
#include <cstring>
#include <iterator>
#include <map>
#include <unistd.h>

namespace envlock::sbom {

namespace {

constexpr std::uintmax_t k_dpkg_status_limit = std::uintmax_t{256} << 20U;
constexpr std::uintmax_t k_sbom_os_release_limit = 1 << 16;
constexpr std::size_t k_dpkg_chunk = std::size_t{1} << 16U;
constexpr std::size_t k_dpkg_line_limit = std::size_t{1} << 16U;

// The stanzas of one package (Package and Architecture) seen so far.
struct Seen {
  std::vector<std::string> lines; // "line 12 (2.36-9, installed)"
  bool component = false;         // an installed stanza became its component
};

} // namespace

bool DpkgPackage::installed() const {
  const auto words = util::split(status, ' ');
  return words.size() == 3 && words[2] == "installed";
}

void DpkgStatusParser::flush() {
  if (!m_current.name.empty()) {
    m_each(std::move(m_current));
  }
  m_current = DpkgPackage{};
}

void DpkgStatusParser::finish() {
  flush();
}

void DpkgStatusParser::line(std::string_view text) {
  ++m_line;
  if (!text.empty() && text.back() == '\r') {
    text.remove_suffix(1);
  }
  if (util::trim(text).empty()) {
    flush();
    return;
  }
  if (m_current.line == 0) {
    m_current.line = m_line;
  }
  if (text.front() == ' ' || text.front() == '\t') {
    return;
  }
  const auto colon = text.find(':');
  if (colon == std::string_view::npos) {
    return;
  }
  const std::string_view key = text.substr(0, colon);
  std::string* field = key == "Package"        ? &m_current.name
                       : key == "Version"      ? &m_current.version
                       : key == "Architecture" ? &m_current.architecture
                       : key == "Source"       ? &m_current.source
                       : key == "Status"       ? &m_current.status
                                               : nullptr;
  if (field != nullptr) {
    *field = std::string(util::trim(text.substr(colon + 1)));
  }
}

std::vector<DpkgPackage> parse_dpkg_status(std::string_view text) {
  std::vector<DpkgPackage> out;
  DpkgStatusParser parser([&](DpkgPackage package) { out.push_back(std::move(package)); });
  std::size_t at = 0;
  while (at < text.size()) {
    const auto end = text.find('\n', at);
    parser.line(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    at = end == std::string_view::npos ? text.size() : end + 1;
  }
  parser.finish();
  return out;
}

Status read_dpkg_status(int fd, const std::string& shown, std::uintmax_t limit,
                        const std::function<void(DpkgPackage)>& each) {
  DpkgStatusParser parser(each);
  std::vector<char> chunk(k_dpkg_chunk);
  std::string line;
  bool line_cut = false;
  std::uintmax_t total = 0;
  for (;;) {
    const ssize_t got = ::read(fd, chunk.data(), chunk.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      return env_error(shown + ": " + std::strerror(errno));
    }
    if (got == 0) {
      break;
    }
    total += static_cast<std::uintmax_t>(got);
    if (total > limit) {
      return env_error(shown + ": larger than " + std::to_string(limit) + " bytes");
    }
    const std::string_view data(chunk.data(), static_cast<std::size_t>(got));
    std::size_t at = 0;
    while (at < data.size()) {
      const auto end = data.find('\n', at);
      const std::string_view piece =
          data.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
      if (!line_cut) {
        const std::size_t room = k_dpkg_line_limit - line.size();
        line.append(piece.substr(0, room));
        line_cut = piece.size() > room;
      }
      if (end == std::string_view::npos) {
        break;
      }
      parser.line(line);
      line.clear();
      line_cut = false;
      at = end + 1;
    }
  }
  if (!line.empty()) {
    parser.line(line);
  }
  parser.finish();
  return {};
}

SystemPart system_packages(const verify::RunContext& context) {
  SystemPart out;
  std::map<std::string, std::string> os;
  for (const char* path : {"/etc/os-release", "/usr/lib/os-release"}) {
    if (const auto text = context.read(context.at(path), k_sbom_os_release_limit)) {
      os = node::parse_os_release(*text);
      out.properties.push_back({"envlock:os-release", path});
      break;
    }
  }
  if (os.empty()) {
    out.properties.push_back({"envlock:os-release",
                              "none found (/etc/os-release, /usr/lib/os-release); deb purls say "
                              "namespace debian"});
  }
  const std::string id = os.contains("ID") ? os["ID"] : std::string();
  const std::string version_id = os.contains("VERSION_ID") ? os["VERSION_ID"] : std::string();
  if (!id.empty()) {
    Component system;
    system.type = "operating-system";
    system.name = id;
    system.version = version_id;
    system.bom_ref = "os:" + id + (version_id.empty() ? "" : "-" + version_id);
    if (os.contains("PRETTY_NAME")) {
      system.description = os["PRETTY_NAME"];
    }
    out.components.push_back(std::move(system));
  }
  auto status = context.open_regular(context.at(k_dpkg_status));
  if (!status) {
    out.properties.push_back(
        {"envlock:dpkg", context.is_missing(context.at(k_dpkg_status))
                             ? std::string(k_dpkg_status) + ": none (no Debian packages)"
                             : status.error().message});
    return out;
  }
  const std::string distro =
      id.empty() ? std::string() : id + (version_id.empty() ? "" : "-" + version_id);
  std::size_t not_installed = 0;
  std::map<std::string, Seen> seen; // "NAME:ARCH"
  std::vector<Component> packages;  // kept only when the whole status was read
  const auto each = [&](DpkgPackage package) {
    Seen& same = seen[package.name + ":" + package.architecture];
    same.lines.push_back("line " + std::to_string(package.line) + " (" + package.version + ", " +
                         (package.installed() ? "installed" : "not installed") + ")");
    if (!package.installed()) {
      ++not_installed;
      return;
    }
    if (same.component) {
      return;
    }
    same.component = true;
    Component component;
    component.type = "library";
    component.name = package.name;
    component.version = package.version;
    component.purl = make_purl("deb", id.empty() ? "debian" : id, package.name, package.version,
                               {{"arch", package.architecture}, {"distro", distro}});
    component.bom_ref = component.purl;
    if (!package.source.empty()) {
      component.properties.push_back({"envlock:dpkg:source", package.source});
    }
    packages.push_back(std::move(component));
  };
  if (auto read = read_dpkg_status(status->get(), k_dpkg_status, k_dpkg_status_limit, each);
      !read) {
    out.properties.push_back({"envlock:dpkg", read.error().message});
    return out;
  }
  out.properties.push_back({"envlock:dpkg", k_dpkg_status});
  std::move(packages.begin(), packages.end(), std::back_inserter(out.components));
  for (const auto& [package, same] : seen) {
    if (same.lines.size() > 1) {
      out.properties.push_back(
          {"envlock:dpkg:duplicate",
           package + ": " + std::to_string(same.lines.size()) + " stanzas, " +
               util::join(same.lines, ", ") + ": merged into one component" +
               (same.component ? ", the first installed stanza's" : " (none installed)")});
    }
  }
  if (not_installed > 0) {
    out.properties.push_back(
        {"envlock:dpkg:not-installed",
         std::to_string(not_installed) + " stanzas whose Status is not installed (left out)"});
  }
  return out;
}

} // namespace envlock::sbom
