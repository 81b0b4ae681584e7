#include "build/dockerfile_images.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <cctype>

namespace envlock::build {

BuildArgs assignments(const Instruction& instruction) {
  BuildArgs out;
  const auto commands = shell_commands(instruction.arguments);
  if (commands.empty()) {
    return out;
  }
  const auto& words = commands.front();
  if (instruction.keyword == "ENV" && words.size() >= 2 &&
      words[0].find('=') == std::string::npos) {
    out[words[0]] = util::join(std::vector<std::string>(words.begin() + 1, words.end()), " ");
    return out;
  }
  for (const auto& word : words) {
    const auto eq = word.find('=');
    out[word.substr(0, eq)] = eq == std::string::npos ? "" : word.substr(eq + 1);
  }
  return out;
}

std::string substitute_args(std::string_view text, const BuildArgs& args,
                            std::vector<std::string>& missing) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$') {
      out += text[i];
      continue;
    }
    std::string name;
    std::string fallback;
    if (i + 1 < text.size() && text[i + 1] == '{') {
      const auto close = text.find('}', i);
      std::string inner(text.substr(i + 2, close == std::string_view::npos ? 0 : close - i - 2));
      i = close == std::string_view::npos ? text.size() : close;
      const auto dash = inner.find(":-");
      name = inner.substr(0, dash);
      fallback = dash == std::string::npos ? "" : inner.substr(dash + 2);
    } else {
      while (i + 1 < text.size() &&
             (text[i + 1] == '_' || std::isalnum(static_cast<unsigned char>(text[i + 1])) != 0)) {
        name += text[++i];
      }
    }
    const auto it = args.find(name);
    if (it != args.end() && !it->second.empty()) {
      out += it->second;
    } else if (!fallback.empty()) {
      out += fallback;
    } else {
      missing.push_back(name);
    }
  }
  return out;
}

std::vector<FromImage> from_images(const std::vector<Instruction>& instructions,
                                   const BuildArgs& overrides) {
  BuildArgs args;
  std::vector<std::string> stages; // lower case
  std::vector<FromImage> out;
  for (const auto& instruction : instructions) {
    if (instruction.keyword == "ARG" && out.empty()) {
      for (auto& [name, value] : assignments(instruction)) {
        const auto given = overrides.find(name);
        args[name] = given == overrides.end() ? value : given->second;
      }
      continue;
    }
    if (instruction.keyword != "FROM") {
      continue;
    }
    const FromLine parts = parse_from(instruction.arguments);
    FromImage from;
    from.line = instruction.line;
    from.end_line = instruction.end_line;
    from.written = parts.image;
    from.stage = parts.stage;
    from.platform_flag = parts.platform_flag;
    std::vector<std::string> missing;
    from.image = substitute_args(parts.image, args, missing);
    if (!missing.empty()) {
      from.missing = missing.front();
    }
    const std::string lower = util::to_lower(from.image);
    if (lower == "scratch") {
      from.kind = FromKind::scratch;
    } else if (std::find(stages.begin(), stages.end(), lower) != stages.end()) {
      from.kind = FromKind::stage;
    }
    if (!parts.stage.empty()) {
      stages.push_back(util::to_lower(parts.stage));
    }
    out.push_back(std::move(from));
  }
  return out;
}

} // namespace envlock::build
