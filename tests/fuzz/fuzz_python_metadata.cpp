// What the verifier reads from an image's files: RECORD, torch's version.py, Enroot's rc labels
// and the dynamic section of an ELF library. Any bytes give a value or one error, never a crash.
#include "util/fs.hpp"
#include "verify/probes/dist_record.hpp"
#include "verify/probes/enroot_rc.hpp"
#include "verify/probes/file_scan.hpp"
#include "verify/probes/torch_install.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace envlock;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)verify::parse_record(text);
  (void)verify::parse_version_py(text);
  (void)verify::parse_enroot_rc_labels(text);

  static const util::TempDir temp = util::TempDir::create("envlock-fuzz-elf").value();
  const auto library = temp.path() / "lib.so";
  if (!util::write_file_atomic(library, text)) {
    std::abort();
  }
  (void)verify::read_elf_dynamic(library);
  return 0;
}
