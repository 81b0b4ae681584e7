// The images a Dockerfile's FROM lines name once its build arguments are applied: for lint (is
// each one pinned?) and for the upstream recipe (which images does `envlock lock` resolve, which
// lines does `envlock render` rewrite).
#pragma once

#include "build/dockerfile_parse.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace envlock::build {

using BuildArgs = std::map<std::string, std::string>;

enum class FromKind { image, stage, scratch };

struct FromImage {
  int line = 0;     // the FROM instruction's first line
  int end_line = 0; // and its last
  FromKind kind = FromKind::image;
  std::string written;       // the image as written: "${FROM_IMAGE_NAME}"
  std::string image;         // with the build arguments substituted (when `missing` is empty)
  std::string missing;       // the first build argument without a value, if any
  std::string stage;         // the AS name as written; empty when none
  std::string platform_flag; // "--platform=..." as written, or empty
};

// NAME=VALUE pairs of an ARG or ENV instruction (also the old `ENV NAME VALUE` form); an ARG
// without a default maps to "".
BuildArgs assignments(const Instruction& instruction);

// Substitutes $NAME, ${NAME} and ${NAME:-default} with `args`; a name without a (non-empty)
// value and without a default is substituted by "" and appended to `missing`.
std::string substitute_args(std::string_view text, const BuildArgs& args,
                            std::vector<std::string>& missing);

// Every FROM of `instructions`, in order. The arguments are the global ARGs (those before the
// first FROM) with their defaults, each replaced by `overrides` when it names them, as
// `--build-arg` does. A FROM that names an earlier stage (case-insensitive) is FromKind::stage.
std::vector<FromImage> from_images(const std::vector<Instruction>& instructions,
                                   const BuildArgs& overrides);

} // namespace envlock::build
