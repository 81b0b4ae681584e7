#include "build/dockerfile_parse.hpp"

#include "util/strings.hpp"

#include <cctype>
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

struct HeredocMarker {
  std::string word; // the terminator
  bool strip_tabs = false;
};

// The words of `text` split at unquoted blanks, quotes kept.
std::vector<std::string> raw_words(std::string_view text) {
  std::vector<std::string> out;
  std::string word;
  char quote = 0;
  for (const char c : text) {
    if (quote == 0 && (c == ' ' || c == '\t' || c == '\r')) {
      if (!word.empty()) {
        out.push_back(std::move(word));
        word.clear();
      }
      continue;
    }
    if (quote == 0 && (c == '"' || c == '\'')) {
      quote = c;
    } else if (c == quote) {
      quote = 0;
    }
    word += c;
  }
  if (!word.empty()) {
    out.push_back(std::move(word));
  }
  return out;
}

// The heredoc markers of an instruction's arguments, in order. As BuildKit reads them, a marker
// is a whole word: `<<EOF`, `<<-EOF` (leading tabs stripped), `<<"EOF"` or `<<'EOF'`, after an
// optional file descriptor (`3<<EOF`); `$((1<<3))`, `cat<<EOF` and `<<<word` are not markers.
std::vector<HeredocMarker> heredoc_markers(std::string_view text) {
  std::vector<HeredocMarker> out;
  for (const auto& word : raw_words(text)) {
    std::string_view rest = word;
    while (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest.front())) != 0) {
      rest.remove_prefix(1);
    }
    if (!rest.starts_with("<<")) {
      continue;
    }
    rest.remove_prefix(2);
    HeredocMarker marker;
    if (rest.starts_with('-')) {
      marker.strip_tabs = true;
      rest.remove_prefix(1);
    }
    if (rest.find('<') != std::string_view::npos) {
      continue;
    }
    for (const char c : rest) {
      if (c != '"' && c != '\'') {
        marker.word += c;
      }
    }
    if (!marker.word.empty()) {
      out.push_back(std::move(marker));
    }
  }
  return out;
}

// Whether BuildKit reads heredocs for `keyword`.
bool takes_heredocs(std::string_view keyword) {
  return keyword == "RUN" || keyword == "COPY" || keyword == "ADD";
}

// Reads the body of each heredoc of `instruction` from the lines after `i`, up to its terminator
// (or the end of the file), into instruction.script; `i` ends on the last line read.
void read_heredocs(const std::vector<std::string>& lines, std::size_t& i,
                   Instruction& instruction) {
  for (const auto& marker : heredoc_markers(instruction.arguments)) {
    std::string pending;
    int pending_line = 0;
    while (i + 1 < lines.size()) {
      std::string_view body = lines[++i];
      if (!body.empty() && body.back() == '\r') {
        body.remove_suffix(1);
      }
      while (marker.strip_tabs && body.starts_with('\t')) {
        body.remove_prefix(1);
      }
      if (body == marker.word) {
        break;
      }
      if (pending.empty() && (util::trim(body).empty() || is_comment(body))) {
        continue;
      }
      std::string text(body);
      const bool more = strip_continuation(text);
      if (pending.empty()) {
        pending_line = static_cast<int>(i) + 1;
      }
      const auto part = util::trim(text);
      pending += pending.empty() || part.empty() ? "" : " ";
      pending += part;
      if (!more) {
        instruction.script.push_back(ScriptLine{pending_line, std::move(pending)});
        pending.clear();
      }
    }
    if (!pending.empty()) {
      instruction.script.push_back(ScriptLine{pending_line, std::move(pending)});
    }
  }
}

} // namespace

std::vector<Instruction> parse_dockerfile(std::string_view text) {
  std::vector<Instruction> out;
  auto lines = util::split(text, '\n');
  if (!lines.empty() && lines.back().empty()) {
    lines.pop_back(); // what follows the final newline is not a line
  }
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
    if (takes_heredocs(instruction.keyword)) {
      read_heredocs(lines, i, instruction);
    }
    instruction.end_line = static_cast<int>(i) + 1;
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
    } else if (c == '#' && !in_word) {
      end_word(); // a comment, to the end of the line
      while (i + 1 < command_line.size() && command_line[i + 1] != '\n') {
        ++i;
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
