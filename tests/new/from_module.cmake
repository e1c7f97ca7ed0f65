# `kta new torch2hip NAME --from MODULE`: the task checks clean, is in canonical form, compiles
# (the module in the python runner, the HIP starter on the cpu device), declares what MATCH lists
# (regular expressions, each found in the .kta), and evaluates on the cpu device: the scaffold's
# starter, which only zeroes the outputs, is wrong against the module's values; with SOLUTIONS a
# real HIP solution replayed over the scaffold's declarations is correct.
#   cmake -DKTA=kta -DMODULE=m.py -DNAME=n -DWORK=dir "-DMATCH=re1;re2" [-DSOLUTIONS=dir]
#         -P from_module.cmake
cmake_policy(SET CMP0054 NEW)
include(${CMAKE_CURRENT_LIST_DIR}/new_support.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(task ${WORK}/${NAME})
kta(0 "created ${task} [(]torch2hip task[)]" new torch2hip ${NAME} --from ${MODULE} --dir ${WORK})
expect_clean(${task})
kta(0 "^ok: 1 file, 1 task, 0 plans; 2 entries compiled on the cpu device" check --compile ${task})
file(READ ${task}/${NAME}.kta text)
foreach(re ${MATCH})
  if(NOT text MATCHES "${re}")
    message(FATAL_ERROR "${NAME}.kta does not match '${re}':\n${text}")
  endif()
endforeach()
expect_eval(${task}/${NAME}.kta starter_wrong ${WORK}/run)
if(SOLUTIONS)
  expect_eval(${task}/${NAME}.kta correct ${WORK}/run-solution --replay ${SOLUTIONS})
endif()
