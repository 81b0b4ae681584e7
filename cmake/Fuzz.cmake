# libFuzzer targets (tests/fuzz): with ENVLOCK_FUZZ=ON, clang instruments every object for
# coverage (-fsanitize=fuzzer-no-link), so the same sanitizer build serves the unit tests and the
# fuzz targets; each target links libFuzzer's main (-fsanitize=fuzzer).
option(ENVLOCK_FUZZ "Build the libFuzzer targets (needs clang)" OFF)
if(ENVLOCK_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ENVLOCK_FUZZ needs clang (configure with CXX=clang++)")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
