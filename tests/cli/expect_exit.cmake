# Runs a command and checks its exact exit status: cmake -DEXPECT=N -DCMD="a;b" -P expect_exit.cmake
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL EXPECT)
  message(FATAL_ERROR "expected exit status ${EXPECT}, got ${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
