# GPU smoke kernels: kernels/*.cu compiled by nvcc into one fatbin that is embedded in the verifier
# as a byte array. Without nvcc the build succeeds and the verifier reports the kernels as not built in.
set(ENVLOCK_KERNEL_SOURCES "")
set(ENVLOCK_KERNELS_BUILT OFF)
option(ENVLOCK_KERNELS "Build the GPU smoke kernels when nvcc is found" ON)
file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/generated)
find_program(ENVLOCK_NVCC nvcc HINTS /usr/local/cuda/bin)
file(GLOB ENVLOCK_CU_FILES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/kernels/*.cu)
if(ENVLOCK_KERNELS AND ENVLOCK_NVCC AND ENVLOCK_CU_FILES)
  set(fatbin ${CMAKE_CURRENT_BINARY_DIR}/generated/smoke.fatbin)
  set(embed ${CMAKE_CURRENT_BINARY_DIR}/generated/smoke_fatbin.cpp)
  add_custom_command(OUTPUT ${fatbin}
    COMMAND ${ENVLOCK_NVCC} --fatbin -O3 -std=c++17
      -gencode arch=compute_90,code=sm_90 -gencode arch=compute_100,code=sm_100
      -gencode arch=compute_90,code=compute_90
      -o ${fatbin} ${ENVLOCK_CU_FILES}
    DEPENDS ${ENVLOCK_CU_FILES} VERBATIM)
  add_custom_command(OUTPUT ${embed}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${fatbin} -DOUTPUT=${embed} -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/Embed.cmake
    DEPENDS ${fatbin} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/Embed.cmake VERBATIM)
  set(ENVLOCK_KERNEL_SOURCES ${embed})
  set(ENVLOCK_KERNELS_BUILT ON)
  message(STATUS "envlock: GPU smoke kernels built with ${ENVLOCK_NVCC}")
else()
  message(STATUS "envlock: no nvcc or no kernels/*.cu; the verifier is built without GPU smoke kernels")
endif()
