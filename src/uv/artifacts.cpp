#include "uv/artifacts.hpp"

#include "util/strings.hpp"

#include <algorithm>
#include <toml++/toml.h>

namespace envlock::uv {

namespace {

std::string last_part(std::string_view location) {
  const auto cut = location.find_first_of("?#");
  location = location.substr(0, cut);
  const auto slash = location.find_last_of('/');
  return std::string(slash == std::string_view::npos ? location : location.substr(slash + 1));
}

Result<Artifact> read_artifact(const toml::table& table, std::string_view origin,
                               const std::string& what) {
  Artifact out;
  for (const char* key : {"url", "path", "filename"}) {
    if (const auto* value = table.get_as<std::string>(key); value != nullptr) {
      out.location = value->get();
      break;
    }
  }
  out.filename = last_part(out.location);
  if (const auto* name = table.get_as<std::string>("filename"); name != nullptr) {
    out.filename = name->get();
  }
  if (const auto* hash = table.get_as<std::string>("hash"); hash != nullptr) {
    const std::string& text = hash->get();
    if (text.starts_with("sha256:")) {
      out.sha256 = util::to_lower(text.substr(7));
      if (out.sha256.size() != 64 || !util::is_hex(out.sha256)) {
        return input_error(std::string(origin) + ": " + what + ": hash '" + text +
                           "' is not sha256:<64 hex>");
      }
    }
  }
  if (const auto* size = table.get_as<std::int64_t>("size"); size != nullptr && size->get() >= 0) {
    out.size = static_cast<std::uint64_t>(size->get());
  }
  return out;
}

Result<PackageArtifacts> read_package(const toml::table& table, std::string_view origin) {
  PackageArtifacts out;
  if (const auto* name = table.get_as<std::string>("name"); name != nullptr) {
    out.name = name->get();
  }
  if (const auto* version = table.get_as<std::string>("version"); version != nullptr) {
    out.version = version->get();
  }
  const std::string what = "package '" + out.name + "'";
  if (const auto* node = table.get("sdist"); node != nullptr) {
    const auto* sdist = node->as_table();
    if (sdist == nullptr) {
      return input_error(std::string(origin) + ": " + what + ": sdist must be a table");
    }
    ENVLOCK_TRY_ASSIGN(Artifact artifact, read_artifact(*sdist, origin, what + " sdist"));
    out.sdist = std::move(artifact);
  }
  if (const auto* node = table.get("wheels"); node != nullptr) {
    const auto* wheels = node->as_array();
    if (wheels == nullptr) {
      return input_error(std::string(origin) + ": " + what + ": wheels must be an array");
    }
    for (const auto& item : *wheels) {
      const auto* wheel = item.as_table();
      if (wheel == nullptr) {
        return input_error(std::string(origin) + ": " + what + ": a wheel must be a table");
      }
      ENVLOCK_TRY_ASSIGN(Artifact artifact, read_artifact(*wheel, origin, what + " wheel"));
      out.wheels.push_back(std::move(artifact));
    }
  }
  return out;
}

} // namespace

Result<std::vector<PackageArtifacts>> read_artifacts(std::string_view text,
                                                     std::string_view origin) {
  toml::table doc;
  try {
    doc = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    return input_error(std::string(origin) + ":" + std::to_string(where.line) + ":" +
                       std::to_string(where.column) + ": " + std::string(e.description()));
  }
  std::vector<PackageArtifacts> out;
  const auto* packages = doc.get_as<toml::array>("package");
  if (packages == nullptr) {
    return out;
  }
  for (const auto& item : *packages) {
    const auto* table = item.as_table();
    if (table == nullptr) {
      continue;
    }
    ENVLOCK_TRY_ASSIGN(PackageArtifacts package, read_package(*table, origin));
    if (!package.name.empty()) {
      out.push_back(std::move(package));
    }
  }
  return out;
}

std::vector<std::string> wheel_tags(std::string_view filename) {
  if (!filename.ends_with(".whl")) {
    return {};
  }
  const auto parts = util::split(std::string(filename.substr(0, filename.size() - 4)), '-');
  if (parts.size() != 5 && parts.size() != 6) {
    return {};
  }
  const std::size_t n = parts.size();
  std::vector<std::string> out;
  for (const auto& python : util::split(parts[n - 3], '.')) {
    for (const auto& abi : util::split(parts[n - 2], '.')) {
      for (const auto& platform : util::split(parts[n - 1], '.')) {
        out.push_back(python + "-" + abi + "-" + platform);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace envlock::uv
