# Runs `kta eval PLAN --device cpu --quick --seeds 1 --json ARGS` and checks every task of the
# results: EXPECT=correct — compiled, correct on the visible shapes and on the held-out ones;
# EXPECT=skipped — skipped, with the reason "triton not available"; EXPECT=overfit — compiled,
# correct on the visible shapes and wrong on held-out ones (a solution that hard-codes what it
# saw). Speed is not asserted: the cpu device is shared and noisy.
#   cmake -DKTA=kta -DPLAN=p.kta -DOUT=dir -DEXPECT=correct|skipped|overfit -DARGS="a;b"
#         -P expect_eval.cmake
cmake_policy(SET CMP0054 NEW)  # "skipped" is a string here, not a variable
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${KTA} eval ${PLAN} --device cpu --quick --seeds 1 --json -o ${OUT} ${ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc STREQUAL "0" AND NOT rc STREQUAL "1")
  message(FATAL_ERROR "kta eval exited with ${rc}\n${err}")
endif()
string(JSON n ERROR_VARIABLE jerr LENGTH "${out}" tasks)
if(jerr OR n EQUAL 0)
  message(FATAL_ERROR "no task results (${jerr})\nstdout: ${out}\nstderr: ${err}")
endif()
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON task GET "${out}" tasks ${i} task)
  string(JSON reason GET "${out}" tasks ${i} failure_reason)
  string(JSON was_skipped GET "${out}" tasks ${i} skipped)
  if(EXPECT STREQUAL "skipped")
    # `skipped` holds the reason a task was not evaluated here ("" when it was).
    if(NOT was_skipped MATCHES "triton not available")
      message(FATAL_ERROR "${task}: expected skipped (triton not available), got skipped='${was_skipped}' '${reason}'")
    endif()
    continue()
  endif()
  string(JSON compiled GET "${out}" tasks ${i} compiled)
  string(JSON correct GET "${out}" tasks ${i} correct)
  string(JSON held GET "${out}" tasks ${i} heldout correct)
  if(EXPECT STREQUAL "overfit")
    if(NOT was_skipped STREQUAL "" OR NOT compiled OR NOT correct OR held)
      message(FATAL_ERROR "${task}: expected correct on the visible shapes and wrong on held-out ones, got compiled=${compiled} correct=${correct} held-out correct=${held}: ${reason}")
    endif()
    message(STATUS "${task}: correct on visible shapes, wrong on held-out ones: ${reason}")
    continue()
  endif()
  if(NOT was_skipped STREQUAL "" OR NOT compiled OR NOT correct OR NOT held)
    message(FATAL_ERROR "${task}: compiled=${compiled} correct=${correct} held-out correct=${held}: ${reason}")
  endif()
  message(STATUS "${task}: correct on visible and held-out shapes")
endforeach()
