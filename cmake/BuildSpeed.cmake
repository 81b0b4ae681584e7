# Build speed (docs/ARCHITECTURE.md, "Building"): nearly every file includes nlohmann/json and the
# same standard headers, and every command file CLI11. A unity build compiles each library in
# batches of files, so those headers are parsed once per batch; precompiled headers parse them
# once per target. Both are on by default; -DENVLOCK_UNITY=OFF -DENVLOCK_PCH=OFF build file by
# file (scripts/lint.sh does, for clang-tidy's compile commands).

# Files per unity batch; 0 puts a whole target in one batch (scripts/unity-check.sh does, so that
# two files of a target that clash are found whatever batches they later fall into).
set(ENVLOCK_UNITY_BATCH_SIZE 16 CACHE STRING "Files per unity batch (0: one batch per target)")

# Unity batches for TARGETS (generated sources, large byte arrays, stay out of them).
function(envlock_build_speed)
  if(NOT ENVLOCK_UNITY)
    return()
  endif()
  foreach(target ${ARGN})
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
      UNITY_BUILD_BATCH_SIZE ${ENVLOCK_UNITY_BATCH_SIZE})
  endforeach()
  set_source_files_properties(${ENVLOCK_KERNEL_SOURCES} ${ENVLOCK_RESUME_SCRIPT_CPP}
    ${ENVLOCK_TEMPLATES_CPP} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()

# envlock_precompile(TARGET [HEADER...]): the common headers, and HEADERs, precompiled for TARGET.
function(envlock_precompile target)
  if(NOT ENVLOCK_PCH)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE
    <nlohmann/json.hpp> <algorithm> <cstdint> <filesystem> <functional> <map> <memory>
    <optional> <string> <string_view> <utility> <vector> ${ARGN})
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    # clang stamps a precompiled header with its time, which ccache cannot reuse (ccache's manual).
    target_compile_options(${target} PRIVATE "SHELL:-Xclang -fno-pch-timestamp")
  endif()
endfunction()
