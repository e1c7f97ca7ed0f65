# cmake -DSOURCE=<kta source> -DBINARY=<sub-build folder> -DWERROR=ON|OFF -P amd_build.cmake
# The amd platform of the hip device, checked on a machine without ROCm or an AMD GPU: configures
# a sub-build with -DKTA_HIP_PLATFORM=amd over Debian's HIP (libamdhip64-dev, hipcc), builds the
# hip targets and their tests, and runs the compile gate (hipRTC for gfx90a needs no GPU) and the
# loader tests. Every failure, a missing prerequisite included, fails the test (hip.amd_build).
foreach(var SOURCE BINARY)
  if(NOT ${var})
    message(FATAL_ERROR "amd_build.cmake: -D${var}=... is required")
  endif()
endforeach()

find_program(HIPCC hipcc PATHS /opt/rocm/bin)
find_program(HIPCONFIG hipconfig PATHS /opt/rocm/bin)
if(NOT HIPCC OR NOT HIPCONFIG)
  message(FATAL_ERROR "hip.amd_build: hipcc/hipconfig not found; install the Debian packages "
                      "hipcc and libamdhip64-dev (cmake/setup.sh does)")
endif()
execute_process(COMMAND ${HIPCONFIG} --platform OUTPUT_VARIABLE platform
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT platform STREQUAL "amd")
  message(FATAL_ERROR "hip.amd_build: '${HIPCONFIG} --platform' says '${platform}', not amd")
endif()

function(step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "hip.amd_build: ${what} failed (${rc}); the amd platform of the hip "
                        "device is broken (sub-build in ${BINARY})")
  endif()
endfunction()

cmake_host_system_information(RESULT jobs QUERY NUMBER_OF_LOGICAL_CORES)
step("configuring" ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -G Ninja
     -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKTA_HIP_PLATFORM=amd -DKTA_WERROR=${WERROR}
     -DKTA_BUILD_ANALYZERS=OFF -DKTA_BUILD_BENCH=OFF)
step("building" ${CMAKE_COMMAND} --build ${BINARY} --parallel ${jobs} --target kta_hip_rtc kta_hip
     kta_hip_rtc_linkcheck kta_hip_rtc_test kta_hip_loader_test)
# The gtest cases of kta_hip_rtc_test (HipRtc*, HipSignature) and kta_hip_loader_test
# (HipPluginLoader); the other hip tests need the kta binary, which this sub-build skips.
step("the amd compile-gate and loader tests" ${CMAKE_COMMAND} -E env CTEST_OUTPUT_ON_FAILURE=1
     ${CMAKE_CTEST_COMMAND} --test-dir ${BINARY} -L hip -R "^Hip" --no-tests=error
     --timeout 300)
