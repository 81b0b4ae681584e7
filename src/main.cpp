#include "cli/command.hpp"

int main(int argc, char** argv) {
  return envlock::cli::run_main(argc, argv);
}
