# `kta new ARGS` is a usage error: exit status 2, MATCH in the output, nothing written in WORK.
#   cmake -DKTA=kta -DWORK=dir "-DMATCH=re" "-DARGS=a;b" -P usage.cmake
cmake_policy(SET CMP0054 NEW)
include(${CMAKE_CURRENT_LIST_DIR}/new_support.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
kta(2 "${MATCH}" new ${ARGS} --dir ${WORK})
file(GLOB left LIST_DIRECTORIES true ${WORK}/* ${WORK}/.*)
if(left)
  message(FATAL_ERROR "left behind: ${left}")
endif()
