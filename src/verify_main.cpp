// envlock-verify: the node-side verifier. Needs nothing but glibc at run time.
#include "node/gpu_sampler.hpp"
#include "verify/verify_cli.hpp"

int main(int argc, char** argv) {
  return envlock::verify::verify_main(argc, argv,
                                      [] { return envlock::node::open_nvml_sampler(); });
}
