#include "squashfs/entry_path.hpp"

#include "util/strings.hpp"

namespace envlock::squashfs {

namespace {
constexpr std::size_t k_max_path = 4095;
constexpr std::size_t k_max_component = 255;
} // namespace

std::string EntryPath::joined() const {
  return util::join(parts, "/");
}

std::string EntryPath::parent() const {
  if (parts.size() <= 1) {
    return "";
  }
  return util::join(std::vector<std::string>(parts.begin(), parts.end() - 1), "/");
}

EntryPath split_entry_path(std::string_view name) {
  EntryPath out;
  out.absolute = !name.empty() && name.front() == '/';
  if (name.size() > k_max_path) {
    out.problem = PathProblem::too_long;
    return out;
  }
  for (auto& part : util::split(name, '/')) {
    if (part.empty() || part == ".") {
      continue;
    }
    if (part == "..") {
      out.problem = PathProblem::dot_dot;
    } else if (part.size() > k_max_component) {
      out.problem = PathProblem::too_long;
    }
    out.parts.push_back(std::move(part));
  }
  return out;
}

} // namespace envlock::squashfs
