# Writes INPUT as a C++ byte array (envlock::kernels::k_fatbin) into OUTPUT.
file(READ ${INPUT} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR size "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
file(WRITE ${OUTPUT} "// Generated from ${INPUT}; do not edit.\n#include <cstddef>\n#include <cstdint>\nnamespace envlock::kernels {\nalignas(64) extern const std::uint8_t k_fatbin[] = {${bytes}};\nextern const std::size_t k_fatbin_size = ${size};\n}\n")
