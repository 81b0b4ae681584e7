#include "build/dockerfile_parse.hpp"

#include "util/strings.hpp"

#include <sstream>

namespace envlock::build {

namespace {

bool is_comment(std::string_view line) {
  const auto trimmed = util::trim(line);
  return trimmed.starts_with('#');
}

// Whether `line` ends in a continuation backslash; removes it.
bool strip_continuation(std::string& line) {
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
    line.pop_back();
  }
  if (!line.empty() && line.back() == '\\') {
    line.pop_back();
    while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) {
      line.pop_back();
    }
    return true;
  }
  return false;
}

bool is_operator_char(char c) {
  return c == '&' || c == '|' || c == ';';
}

} // namespace

std::vector<Instruction> parse_dockerfile(std::string_view text) {
  std::vector<Instruction> out;
  const auto lines = util::split(text, '\n');
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line = lines[i];
    if (util::trim(line).empty() || is_comment(line)) {
      continue;
    }
    Instruction instruction;
    instruction.line = static_cast<int>(i) + 1;
    std::string joined;
    bool more = strip_continuation(line);
    joined = line;
    while (more && i + 1 < lines.size()) {
      std::string next = lines[++i];
      if (is_comment(next) || util::trim(next).empty()) {
        continue;
      }
      more = strip_continuation(next);
      joined += " " + std::string(util::trim(next));
    }
    const auto trimmed = std::string(util::trim(joined));
    const auto space = trimmed.find_first_of(" \t");
    instruction.keyword = trimmed.substr(0, space);
    for (auto& c : instruction.keyword) {
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    instruction.arguments =
        space == std::string::npos ? "" : std::string(util::trim(trimmed.substr(space)));
    out.push_back(std::move(instruction));
  }
  return out;
}

std::vector<std::vector<std::string>> shell_commands(std::string_view command_line) {
  std::vector<std::vector<std::string>> commands(1);
  std::string word;
  bool in_word = false;
  char quote = 0;
  const auto end_word = [&] {
    if (in_word) {
      commands.back().push_back(word);
    }
    word.clear();
    in_word = false;
  };
  for (std::size_t i = 0; i < command_line.size(); ++i) {
    const char c = command_line[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < command_line.size()) {
        word += command_line[++i];
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < command_line.size()) {
      word += command_line[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '(' || c == ')') {
      end_word();
    } else if (is_operator_char(c)) {
      end_word();
      while (i + 1 < command_line.size() && is_operator_char(command_line[i + 1])) {
        ++i;
      }
      if (!commands.back().empty()) {
        commands.emplace_back();
      }
    } else {
      word += c;
      in_word = true;
    }
  }
  end_word();
  if (commands.back().empty()) {
    commands.pop_back();
  }
  return commands;
}

FromLine parse_from(std::string_view arguments) {
  std::istringstream words{std::string(arguments)};
  FromLine from;
  std::string word;
  while (words >> word) {
    if (word.starts_with("--")) {
      from.platform_flag = word;
      continue;
    }
    if (from.image.empty()) {
      from.image = word;
    } else if (util::to_lower(word) == "as") {
      words >> from.stage;
    }
  }
  return from;
}

} // namespace envlock::build
