// Where a command prints its own lines ("wrote X", a checksum): standard output, unless one of
// the command's outputs goes there ("-", /dev/stdout), in which case standard error, so that the
// output stays exactly what was asked for.
#pragma once

#include "util/fs.hpp"

#include <initializer_list>
#include <iostream>
#include <string>
#include <unistd.h>

namespace envlock::cli {

inline std::ostream& status_stream(std::initializer_list<std::string> outputs) {
  for (const std::string& output : outputs) {
    const auto target = output.empty() ? Result<util::OutputTarget>(util::OutputTarget{})
                                       : util::output_target(output);
    if (target && target->inherited_fd == STDOUT_FILENO) {
      return std::cerr;
    }
  }
  return std::cout;
}

} // namespace envlock::cli
