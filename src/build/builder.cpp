#include "build/builder.hpp"

#include "util/strings.hpp"

#include <sstream>

namespace envlock::build {

std::string builder_name(BuilderKind kind) {
  switch (kind) {
  case BuilderKind::buildah:
    return "buildah";
  case BuilderKind::podman:
    return "podman";
  case BuilderKind::docker:
    return "docker";
  }
  return "buildah";
}

Result<BuilderKind> parse_builder(std::string_view name) {
  for (const auto kind : {BuilderKind::buildah, BuilderKind::docker, BuilderKind::podman}) {
    if (builder_name(kind) == name) {
      return kind;
    }
  }
  return input_error("unknown builder '" + std::string(name) +
                     "'; expected buildah, docker or podman");
}

std::vector<std::string> build_argv(const BuildCommand& command) {
  const std::string epoch = std::to_string(command.source_date_epoch);
  const std::string dockerfile = (command.context_dir / command.dockerfile).string();
  std::vector<std::string> argv;
  if (command.kind == BuilderKind::docker) {
    argv = {"docker",
            "buildx",
            "build",
            "--file",
            dockerfile,
            "--tag",
            command.image,
            "--build-arg",
            "SOURCE_DATE_EPOCH=" + epoch,
            "--iidfile",
            command.id_file.string(),
            "--metadata-file",
            command.metadata_file.string(),
            command.push == Push::yes ? "--push" : "--load"};
  } else {
    argv = {builder_name(command.kind),
            command.kind == BuilderKind::buildah ? "bud" : "build",
            "--isolation",
            command.isolation,
            "--timestamp",
            epoch,
            "--file",
            dockerfile,
            "--tag",
            command.image,
            "--iidfile",
            command.id_file.string()};
    if (command.kind == BuilderKind::podman) {
      argv.emplace_back("--layers=false");
    }
    if (!command.auth_file.empty()) {
      argv.emplace_back("--authfile");
      argv.push_back(command.auth_file.string());
    }
    if (command.tls == TlsVerify::off) {
      argv.emplace_back("--tls-verify=false");
    }
  }
  for (const auto& [name, value] : command.build_args) {
    argv.emplace_back("--build-arg");
    argv.push_back(name + "=" + value);
  }
  argv.push_back(command.context_dir.string());
  return argv;
}

std::vector<std::string> push_argv(const BuildCommand& command,
                                   const std::filesystem::path& digest_file) {
  if (command.kind == BuilderKind::docker) {
    return {};
  }
  std::vector<std::string> argv{builder_name(command.kind), "push", "--digestfile",
                                digest_file.string()};
  if (!command.auth_file.empty()) {
    argv.emplace_back("--authfile");
    argv.push_back(command.auth_file.string());
  }
  if (command.tls == TlsVerify::off) {
    argv.emplace_back("--tls-verify=false");
  }
  argv.push_back(command.image);
  argv.push_back("docker://" + command.image);
  return argv;
}

std::string parse_builder_version(std::string_view output) {
  const std::string first_line(output.substr(0, output.find('\n')));
  std::istringstream words(first_line);
  std::string word;
  while (words >> word) {
    if (util::to_lower(word) == "version" && words >> word) {
      while (!word.empty() && (word.back() == ',' || word.back() == ';')) {
        word.pop_back();
      }
      return word;
    }
  }
  return "";
}

std::string parse_digest_file(std::string_view text) {
  std::string digest(util::trim(text));
  if (!digest.starts_with("sha256:")) {
    digest = "sha256:" + digest;
  }
  const std::string_view hex = std::string_view(digest).substr(7);
  return hex.size() == 64 && util::is_hex(hex) ? digest : "";
}

} // namespace envlock::build
