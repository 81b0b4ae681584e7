#include "node/os_release.hpp"

#include "node/fact.hpp"
#include "util/key_value.hpp"
#include "util/strings.hpp"

namespace envlock::node {

std::map<std::string, std::string> parse_os_release(const std::string& text) {
  std::map<std::string, std::string> out;
  util::for_each_key_value(text, [&](std::string_view key, std::string_view value) {
    out[std::string(key)] = std::string(util::unquote(util::trim(value)));
  });
  return out;
}

void add_os_release(nlohmann::json& facts, const std::filesystem::path& root) {
  std::string path = "/etc/os-release";
  std::string why;
  auto text = read_host_file(root, path, why);
  if (!text) {
    std::string why_usr;
    text = read_host_file(root, "/usr/lib/os-release", why_usr);
    path = "/usr/lib/os-release";
  }
  if (!text) {
    for (const char* key : {"os", "os.id", "os.version_id", "os.pretty"}) {
      facts[key] = missing_fact("/etc/os-release", why);
    }
    return;
  }
  const auto fields = parse_os_release(*text);
  auto field = [&](const char* name) -> nlohmann::json {
    const auto it = fields.find(name);
    if (it == fields.end() || it->second.empty()) {
      return missing_fact(path, path + ": no " + name);
    }
    return found_fact(it->second, path);
  };
  facts["os.id"] = field("ID");
  facts["os.version_id"] = field("VERSION_ID");
  facts["os.pretty"] = field("PRETTY_NAME");
  const auto name = fields.find("NAME");
  const auto version = fields.find("VERSION_ID");
  if (name == fields.end() || version == fields.end()) {
    facts["os"] = missing_fact(path, path + ": no NAME or VERSION_ID");
  } else {
    facts["os"] = found_fact(name->second + " " + version->second, path);
  }
}

} // namespace envlock::node
