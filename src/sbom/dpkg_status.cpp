#include "sbom/dpkg_status.hpp"

#include "node/os_release.hpp"
#include "sbom/purl.hpp"
#include "util/strings.hpp"

#include <map>

namespace envlock::sbom {

namespace {

constexpr std::uintmax_t k_dpkg_status_limit = std::uintmax_t{256} << 20U;
constexpr std::uintmax_t k_sbom_os_release_limit = 1 << 16;

} // namespace

bool DpkgPackage::installed() const {
  const auto words = util::split(status, ' ');
  return words.size() == 3 && words[2] == "installed";
}

std::vector<DpkgPackage> parse_dpkg_status(std::string_view text) {
  std::vector<DpkgPackage> out;
  DpkgPackage current;
  const auto flush = [&] {
    if (!current.name.empty()) {
      out.push_back(std::move(current));
    }
    current = DpkgPackage{};
  };
  for (const auto& raw : util::split(text, '\n')) {
    std::string_view line = raw;
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    if (util::trim(line).empty()) {
      flush();
      continue;
    }
    if (line.front() == ' ' || line.front() == '\t') {
      continue;
    }
    const auto colon = line.find(':');
    if (colon == std::string_view::npos) {
      continue;
    }
    const std::string_view key = line.substr(0, colon);
    const std::string value(util::trim(line.substr(colon + 1)));
    if (key == "Package") {
      current.name = value;
    } else if (key == "Version") {
      current.version = value;
    } else if (key == "Architecture") {
      current.architecture = value;
    } else if (key == "Source") {
      current.source = value;
    } else if (key == "Status") {
      current.status = value;
    }
  }
  flush();
  return out;
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
  const auto status = context.read(context.at(k_dpkg_status), k_dpkg_status_limit);
  if (!status) {
    out.properties.push_back(
        {"envlock:dpkg", context.is_missing(context.at(k_dpkg_status))
                             ? std::string(k_dpkg_status) + ": none (no Debian packages)"
                             : status.error().message});
    return out;
  }
  out.properties.push_back({"envlock:dpkg", k_dpkg_status});
  const std::string distro =
      id.empty() ? std::string() : id + (version_id.empty() ? "" : "-" + version_id);
  std::size_t not_installed = 0;
  for (const auto& package : parse_dpkg_status(*status)) {
    if (!package.installed()) {
      ++not_installed;
      continue;
    }
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
    out.components.push_back(std::move(component));
  }
  if (not_installed > 0) {
    out.properties.push_back(
        {"envlock:dpkg:not-installed",
         std::to_string(not_installed) + " stanzas whose Status is not installed (left out)"});
  }
  return out;
}

} // namespace envlock::sbom
