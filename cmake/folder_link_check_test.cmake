# cmake -DSOURCE=<kta root> -DBINARY=<scratch dir> -DGENERATOR=<gen> -DCXX=<compiler>
#       -P folder_link_check_test.cmake
# Shows that kta_folder_library's link check fails a back-edge: in a two-folder project (high
# depends on low), low calling high must fail to link (low_linkcheck, undefined reference), and
# the same project without that call must build.
file(REMOVE_RECURSE ${BINARY})
file(WRITE ${BINARY}/src/CMakeLists.txt [=[
cmake_minimum_required(VERSION 3.25)
project(kta_folder_link_check CXX)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
list(APPEND CMAKE_MODULE_PATH ${KTA_CMAKE_DIR})
include(KtaCompilerOptions)
include(KtaFolders)
kta_folder_library(NAME low FOLDER low)
kta_folder_library(NAME high FOLDER high DEPENDS low)
]=])
file(WRITE ${BINARY}/src/low/low.cpp [=[
#ifdef BACK_EDGE
int high_value();
int low_value() { return high_value() + 1; }
#else
int low_value() { return 1; }
#endif
]=])
file(WRITE ${BINARY}/src/high/high.cpp
     "int low_value();\nint high_value() { return low_value() + 1; }\n")

function(build_fake name back_edge out_rc out_log)
  set(b ${BINARY}/${name})
  set(flags "")
  if(back_edge)
    set(flags -DBACK_EDGE)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${BINARY}/src -B ${b} -G ${GENERATOR}
                          -DCMAKE_CXX_COMPILER=${CXX} -DKTA_CMAKE_DIR=${SOURCE}/cmake
                          -DCMAKE_CXX_FLAGS=${flags}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "configuring the fake project failed:\n${log}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${b}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_log} "${log}" PARENT_SCOPE)
endfunction()

build_fake(clean 0 rc log)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the fake project without a back-edge does not build:\n${log}")
endif()
build_fake(back_edge 1 rc log)
if(rc EQUAL 0)
  message(FATAL_ERROR "the link check let a back-edge (low -> high) through:\n${log}")
endif()
if(NOT log MATCHES "low_linkcheck" OR NOT log MATCHES "undefined reference to `high_value")
  message(FATAL_ERROR "the fake back-edge failed, but not in low's link check:\n${log}")
endif()
message(STATUS "link check: the back-edge low -> high fails to link, as it must")
