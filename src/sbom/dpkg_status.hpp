// The system packages of a Debian or Ubuntu image: /var/lib/dpkg/status (RFC 822 stanzas:
// Package, Status, Version, Architecture, Source), and the distribution from /etc/os-release
// (or /usr/lib/os-release), which names the packages' purls: pkg:deb/ID/NAME@VERSION?arch=ARCH
// &distro=ID-VERSION_ID. Only packages whose Status says "installed" are installed; the others
// (config-files, half-installed) are counted in a document property. The status is read stanza by
// stanza from its descriptor, never whole, so memory grows with the packages, not with the file.
// Stanzas that repeat a package (the same Package and Architecture) are merged into one
// component, and a property names them: the first installed stanza is the component.
#pragma once

#include "sbom/bom.hpp"
#include "verify/run_context.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::sbom {

inline constexpr const char* k_dpkg_status = "/var/lib/dpkg/status";

struct DpkgPackage {
  std::string name;
  std::string version;
  std::string architecture;
  std::string source;   // "Source:" (the source package, maybe with "(version)"); empty: the name
  std::string status;   // "install ok installed"
  std::size_t line = 0; // the stanza's first line in the file, from 1
  [[nodiscard]] bool installed() const;
  bool operator==(const DpkgPackage&) const = default;
};

// The status file's stanzas, fed line by line: each finished stanza that names a Package goes to
// `each`. Continuation lines (a leading space or tab) belong to the field above and are skipped.
class DpkgStatusParser {
public:
  explicit DpkgStatusParser(std::function<void(DpkgPackage)> each) : m_each(std::move(each)) {}
  // One line, without its '\n' (a trailing '\r' is dropped).
  void line(std::string_view text);
  // Ends the last stanza.
  void finish();

private:
  void flush();
  std::function<void(DpkgPackage)> m_each;
  DpkgPackage m_current;
  std::size_t m_line = 0;
};

// Parses the status file's stanzas (DpkgStatusParser over the whole text).
std::vector<DpkgPackage> parse_dpkg_status(std::string_view text);

// Reads the status from `fd` in chunks, at most `limit` bytes in all, each line kept up to 64 KiB
// (the rest of a longer line is dropped: the fields read are short). An environment error names
// `shown` when a read fails or the file is larger than `limit`.
Status read_dpkg_status(int fd, const std::string& shown, std::uintmax_t limit,
                        const std::function<void(DpkgPackage)>& each);

struct SystemPart {
  std::vector<Component> components; // the operating system, then one per installed package
  std::vector<Property> properties;  // where they were read, what was not installed
};

// Reads both files through `context`; an image without them has no system part (a property
// says where it looked).
SystemPart system_packages(const verify::RunContext& context);

} // namespace envlock::sbom
