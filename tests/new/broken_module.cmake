# `kta new torch2hip NAME --from MODULE` on a module that cannot make a task: exit status 1, the
# reason MATCH (a regular expression, traceback included) in the output, and nothing left in
# WORK, not even a hidden staging folder.
#   cmake -DKTA=kta -DMODULE=m.py -DWORK=dir "-DMATCH=re" -P broken_module.cmake
cmake_policy(SET CMP0054 NEW)
include(${CMAKE_CURRENT_LIST_DIR}/new_support.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
kta(1 "${MATCH}" new torch2hip broken --from ${MODULE} --dir ${WORK})
file(GLOB left LIST_DIRECTORIES true ${WORK}/* ${WORK}/.*)
if(left)
  message(FATAL_ERROR "left behind: ${left}")
endif()
