// When envlock colours what it prints: `--color=auto|always|never` where a command colours, and
// NO_COLOR (https://no-color.org: set and not empty, no colour) everywhere. auto colours only a
// stream that is a terminal; `--color=always` wins over NO_COLOR, as a per-run choice should.
#pragma once

namespace CLI {
class App;
} // namespace CLI

namespace envlock::cmdline {

enum class ColourWhen { automatic, always, never };

// Adds --color WHEN (auto, always or never; default auto) to `app`, parsed into `when` (which
// must outlive the parse).
void add_colour_option(CLI::App& app, ColourWhen& when);

// Whether to colour what goes to descriptor `fd`: always and never as they say; automatic when
// `fd` is a terminal and `no_color` (the variable NO_COLOR, null when unset) is unset or empty.
bool use_colour(ColourWhen when, int fd, const char* no_color);

// use_colour() with NO_COLOR read from the environment.
bool use_colour(ColourWhen when, int fd);

} // namespace envlock::cmdline
