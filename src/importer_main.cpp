// envlock-importer: the Pyxis importer plugin as a lean executable (no libcurl, libgit2 or
// libarchive to load), so that a cached get starts in a few milliseconds.
#include "importer/command.hpp"

int main(int argc, char** argv) {
  return envlock::importer::importer_main(argc, argv);
}
