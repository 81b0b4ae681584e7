# Warnings for envlock's own code (not for third-party headers).
add_library(envlock_warnings INTERFACE)
target_compile_options(envlock_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wformat=2 -Wimplicit-fallthrough)
if(ENVLOCK_WERROR)
  target_compile_options(envlock_warnings INTERFACE -Werror)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    # GCC 12 reports std::string concatenations it has inlined across a unity batch at -O3 as
    # overflowing, a false positive of that version; the warning stays, as a warning.
    target_compile_options(envlock_warnings INTERFACE -Wno-error=stringop-overflow)
  endif()
endif()
if(ENVLOCK_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()
