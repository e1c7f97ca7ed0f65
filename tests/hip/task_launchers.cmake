# cmake -DSOURCE=<kta source> -DBINARY=<scratch folder> -DHIPCC=<hipcc>
#       -DLAUNCH_INCLUDE=<folder with kta/launch.h alone> -P task_launchers.cmake
# Every launcher-mode .hip file of the suite and of the replay solutions (a whole translation unit
# exporting kta_launch, which the hip device builds with hipcc or nvcc, not through hipRTC, so
# HipRtc.EveryTaskKernelCompiles skips it) builds with Debian's hipcc for an AMD target, as the
# hip device's launcher build does (engine/device/hip/plugin/launcher_build.cpp). No GPU needed.
foreach(var SOURCE BINARY HIPCC LAUNCH_INCLUDE)
  if(NOT ${var})
    message(FATAL_ERROR "task_launchers.cmake: -D${var}=... is required")
  endif()
endforeach()

file(GLOB_RECURSE files ${SOURCE}/tasks/*.hip ${SOURCE}/examples/solutions/*.hip)
file(MAKE_DIRECTORY ${BINARY})
set(built 0)
set(failed "")
foreach(file ${files})
  file(READ ${file} text)
  string(FIND "${text}" "kta_launch" at)
  if(at EQUAL -1)
    continue()
  endif()
  get_filename_component(dir ${file} DIRECTORY)
  file(RELATIVE_PATH rel ${SOURCE} ${file})
  string(REPLACE "/" "_" out ${rel})
  execute_process(COMMAND ${HIPCC} -shared -fPIC -O1 -std=c++17 --offload-arch=gfx90a -x hip
                          -I${LAUNCH_INCLUDE} -I${dir} ${file} -o ${BINARY}/${out}.so
                  RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(rc EQUAL 0)
    math(EXPR built "${built} + 1")
  else()
    message("${rel}: hipcc failed (${rc}):\n${log}")
    list(APPEND failed ${rel})
  endif()
endforeach()
if(failed)
  message(FATAL_ERROR "launcher files that do not build with hipcc: ${failed}")
endif()
if(built LESS 10)
  message(FATAL_ERROR "only ${built} launcher files found under tasks/ and examples/solutions/")
endif()
message("${built} launcher files built with hipcc (gfx90a)")
