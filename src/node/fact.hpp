// One fact of the host facts object (facts.hpp): a value with its source, or why it is missing.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace envlock::node {

// {"value": value, "source": source}
nlohmann::json found_fact(const std::string& value, const std::string& source);

// {"value": null, "source": source, "missing": why}
nlohmann::json missing_fact(const std::string& source, const std::string& why);

// The first line of `root`/`path` with white space trimmed, or why it could not be read
// ("/proc/driver/nvidia/version: not found"). `path` is absolute ("/sys/...").
nlohmann::json file_fact(const std::filesystem::path& root, const std::string& path);

// The whole text of `root`/`path`, or the reason it cannot be read in `why`.
std::optional<std::string> read_host_file(const std::filesystem::path& root,
                                          const std::string& path, std::string& why);

// The first version-like token ("580.65.06", "22.05.8", "27.3.1") of `text`, or "".
std::string first_version(const std::string& text);

// Runs `argv` (program searched in PATH) and returns the first version-like token of its output
// as a fact whose source is the command line; missing with "PROGRAM: not in PATH",
// "COMMAND: exit status N" or "COMMAND: no version in its output".
nlohmann::json program_version_fact(const std::vector<std::string>& argv);

} // namespace envlock::node
