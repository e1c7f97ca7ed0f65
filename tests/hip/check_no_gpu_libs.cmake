# cmake -DBINARY=<file> -DREADELF=<readelf> -P check_no_gpu_libs.cmake
# Fails when BINARY needs a GPU runtime library: kta must start on machines without a driver.
execute_process(COMMAND ${READELF} -d ${BINARY} OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf failed on ${BINARY}")
endif()
foreach(lib libcuda libcudart libnvrtc libamdhip64 libhiprtc libkta_hip)
  if(dyn MATCHES "NEEDED[^\n]*${lib}")
    message(FATAL_ERROR "${BINARY} needs ${lib}: it would not start without a GPU driver")
  endif()
endforeach()
message(STATUS "${BINARY}: no GPU runtime libraries needed")
