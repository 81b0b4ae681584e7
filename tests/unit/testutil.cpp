#include "testutil.hpp"

#include <fstream>
#include <stdexcept>

namespace envlock::test {

void write_text(const std::filesystem::path& path, const std::string& content) {
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path());
  }
  std::ofstream f(path, std::ios::binary);
  f << content;
  if (!f) {
    throw std::runtime_error("cannot write " + path.string());
  }
}

} // namespace envlock::test
