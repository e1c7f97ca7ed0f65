# cmake -DNVCC=<nvcc> -DHIP_INCLUDE=<patched HIP headers> -DABI_INCLUDE=<folder of kta/launch.h>
#       -DCASES=<tests/engine/cases> -DOUT=<folder> -P compile_gpu_cases.cmake
# Compiles every source of the hip device's attack tests (label gpu) as the device would on
# NVIDIA (`nvcc -x cu` with kta's patched HIP headers, for sm_90), so that they keep compiling on
# machines without a GPU, where those tests only skip.
file(GLOB sources "${CASES}/mix/*.hip" "${CASES}/solutions/*/mix/*.hip")
list(LENGTH sources count)
if(count LESS 11)
  message(FATAL_ERROR "expected the mix task's sources and its attack candidates under ${CASES}, "
                      "found ${count} files")
endif()
file(MAKE_DIRECTORY "${OUT}")
set(index 0)
foreach(source IN LISTS sources)
  math(EXPR index "${index} + 1")
  execute_process(
    COMMAND "${NVCC}" -x cu -arch=sm_90 -std=c++17 -O1 -D__HIP_PLATFORM_NVIDIA__
            -Wno-deprecated-gpu-targets -diag-suppress 2810,940 -I${HIP_INCLUDE} -I${ABI_INCLUDE}
            -c "${source}" -o "${OUT}/case${index}.o"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${source} does not compile:\n${out}")
  endif()
  message(STATUS "compiles: ${source}")
endforeach()
