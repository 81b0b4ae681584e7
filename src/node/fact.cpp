#include "node/fact.hpp"

#include "util/process.hpp"
#include "util/strings.hpp"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace envlock::node {

using nlohmann::json;

json found_fact(const std::string& value, const std::string& source) {
  return {{"value", value}, {"source", source}};
}

json missing_fact(const std::string& source, const std::string& why) {
  return {{"value", nullptr}, {"source", source}, {"missing", why}};
}

std::optional<std::string> read_host_file(const std::filesystem::path& root,
                                          const std::string& path, std::string& why) {
  const std::filesystem::path full = root / std::filesystem::path(path).relative_path();
  std::ifstream in(full, std::ios::binary);
  if (!in) {
    const int err = errno;
    why = path + ": " + (err == ENOENT || err == 0 ? "not found" : std::strerror(err));
    return std::nullopt;
  }
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) {
    why = path + ": read error";
    return std::nullopt;
  }
  return text.str();
}

json file_fact(const std::filesystem::path& root, const std::string& path) {
  std::string why;
  const auto text = read_host_file(root, path, why);
  if (!text) {
    return missing_fact(path, why);
  }
  const std::string line(util::trim(text->substr(0, text->find('\n'))));
  if (line.empty()) {
    return missing_fact(path, path + ": empty");
  }
  return found_fact(line, path);
}

std::string first_version(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const bool starts = std::isdigit(static_cast<unsigned char>(text[i])) != 0 &&
                        (i == 0 || std::isalnum(static_cast<unsigned char>(text[i - 1])) == 0);
    if (!starts) {
      continue;
    }
    std::size_t j = i;
    while (j < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[j])) != 0 || text[j] == '.' ||
            text[j] == '-' || text[j] == '+' || text[j] == '~')) {
      ++j;
    }
    std::string token = text.substr(i, j - i);
    while (!token.empty() && (token.back() == '.' || token.back() == '-')) {
      token.pop_back();
    }
    if (token.find('.') != std::string::npos) {
      return token;
    }
    i = j;
  }
  return "";
}

json program_version_fact(const std::vector<std::string>& argv) {
  const std::string command = util::join(argv, " ");
  if (!util::find_program(argv.front())) {
    return missing_fact(command, argv.front() + ": not in PATH");
  }
  auto result = util::run_process(argv);
  if (!result) {
    return missing_fact(command, result.error().message);
  }
  if (result->exit_code != 0) {
    return missing_fact(command, command + ": exit status " + std::to_string(result->exit_code));
  }
  const std::string version = first_version(result->out + "\n" + result->err);
  if (version.empty()) {
    return missing_fact(command, command + ": no version in its output");
  }
  return found_fact(version, command);
}

} // namespace envlock::node
