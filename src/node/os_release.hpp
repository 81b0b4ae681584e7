// The operating system from /etc/os-release (or /usr/lib/os-release).
#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace envlock::node {

// KEY=VALUE lines of an os-release file, with quotes removed; comments and blank lines skipped.
std::map<std::string, std::string> parse_os_release(const std::string& text);

// Adds "os" ("NAME VERSION_ID", e.g. "Ubuntu 24.04"), "os.id", "os.version_id" and "os.pretty"
// to `facts`, each missing with the reason when the file or the key is absent.
void add_os_release(nlohmann::json& facts, const std::filesystem::path& root);

} // namespace envlock::node
