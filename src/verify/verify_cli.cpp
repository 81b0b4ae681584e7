#include "verify/verify_cli.hpp"

#include <iostream>

namespace envlock::verify {

int verify_main(int argc, char** argv) {
  CLI::App app{"envlock-verify: check this node or container against an envlock lock",
               "envlock-verify"};
  app.set_version_flag("--version", std::string("envlock-verify ") + ENVLOCK_VERSION);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  std::cerr << "envlock-verify: error: not implemented yet\n";
  return 2;
}

} // namespace envlock::verify
