// The system packages of a Debian or Ubuntu image: /var/lib/dpkg/status (RFC 822 stanzas:
// Package, Status, Version, Architecture, Source), and the distribution from /etc/os-release
// (or /usr/lib/os-release), which names the packages' purls: pkg:deb/ID/NAME@VERSION?arch=ARCH
// &distro=ID-VERSION_ID. Only packages whose Status says "installed" are installed; the others
// (config-files, half-installed) are counted in a document property.
#pragma once

#include "sbom/bom.hpp"
#include "verify/run_context.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace envlock::sbom {

inline constexpr const char* k_dpkg_status = "/var/lib/dpkg/status";

struct DpkgPackage {
  std::string name;
  std::string version;
  std::string architecture;
  std::string source; // "Source:" (the source package, maybe with "(version)"); empty: the name
  std::string status; // "install ok installed"
  [[nodiscard]] bool installed() const;
};

// Parses the status file's stanzas; continuation lines (a leading space or tab) belong to the
// field above and are skipped.
std::vector<DpkgPackage> parse_dpkg_status(std::string_view text);

struct SystemPart {
  std::vector<Component> components; // the operating system, then one per installed package
  std::vector<Property> properties;  // where they were read, what was not installed
};

// Reads both files through `context`; an image without them has no system part (a property
// says where it looked).
SystemPart system_packages(const verify::RunContext& context);

} // namespace envlock::sbom
