#include "cmdline/colour.hpp"

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <map>
#include <string>
#include <unistd.h>

namespace envlock::cmdline {

void add_colour_option(CLI::App& app, ColourWhen& when) {
  const std::map<std::string, ColourWhen> words{{"auto", ColourWhen::automatic},
                                                {"always", ColourWhen::always},
                                                {"never", ColourWhen::never}};
  app.add_option_function<std::string>(
         "--color", [&when, words](const std::string& word) { when = words.at(word); },
         "Colour the output: auto (on a terminal, unless NO_COLOR is set), always or never "
         "(default: auto)")
      ->check(CLI::Validator(
          [words](std::string& word) -> std::string {
            return words.count(word) != 0 ? "" : "'" + word + "' is not one of auto, always, never";
          },
          ""))
      ->type_name("WHEN");
}

bool use_colour(ColourWhen when, int fd, const char* no_color) {
  switch (when) {
  case ColourWhen::always:
    return true;
  case ColourWhen::never:
    return false;
  case ColourWhen::automatic:
    break;
  }
  if (no_color != nullptr && *no_color != '\0') {
    return false;
  }
  return ::isatty(fd) != 0;
}

bool use_colour(ColourWhen when, int fd) {
  // NOLINTNEXTLINE(concurrency-mt-unsafe): read before any thread starts
  return use_colour(when, fd, std::getenv("NO_COLOR"));
}

} // namespace envlock::cmdline
