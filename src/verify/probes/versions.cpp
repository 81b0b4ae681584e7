#include "verify/probes/versions.hpp"

#include <cctype>

namespace envlock::verify {

std::string cuda_version_text(int code) {
  return std::to_string(code / 1000) + "." + std::to_string((code % 1000) / 10);
}

std::string nccl_version_text(int code) {
  const int major = code < 2900 ? code / 1000 : code / 10000;
  const int rest = code < 2900 ? code % 1000 : code % 10000;
  return std::to_string(major) + "." + std::to_string(rest / 100) + "." +
         std::to_string(rest % 100);
}

std::string cudnn_version_text(long code) {
  const long major = code >= 90000 ? code / 10000 : code / 1000;
  const long rest = code >= 90000 ? code % 10000 : code % 1000;
  return std::to_string(major) + "." + std::to_string(rest / 100) + "." +
         std::to_string(rest % 100);
}

std::optional<std::string> major_minor(std::string_view version) {
  const auto first = version.find('.');
  if (first == std::string_view::npos || first == 0) {
    return std::nullopt;
  }
  auto end = first + 1;
  while (end < version.size() && std::isdigit(static_cast<unsigned char>(version[end])) != 0) {
    ++end;
  }
  if (end == first + 1) {
    return std::nullopt;
  }
  return std::string(version.substr(0, end));
}

std::optional<std::string> version_from_file_name(std::string_view file_name,
                                                  std::string_view stem) {
  if (file_name.size() <= stem.size() || file_name.substr(0, stem.size()) != stem ||
      std::isdigit(static_cast<unsigned char>(file_name[stem.size()])) == 0) {
    return std::nullopt;
  }
  return std::string(file_name.substr(stem.size()));
}

std::string strip_build_suffix(std::string_view version) {
  std::size_t end = 0;
  while (end < version.size() &&
         (std::isdigit(static_cast<unsigned char>(version[end])) != 0 || version[end] == '.')) {
    ++end;
  }
  return std::string(version.substr(0, end));
}

} // namespace envlock::verify
