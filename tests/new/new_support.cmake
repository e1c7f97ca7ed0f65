# Helpers of the `kta new` tests (cmake -P scripts): run kta and check its exit status and output,
# check a task folder as the suite checks tasks, evaluate a task on the cpu device and judge its
# results, fill a scaffold's holes. KTA is the kta binary. Scripts including it set CMP0054 NEW
# first ("wrong", "correct" are strings there, not variables).

# Runs `kta ARGN`, fails unless it exits with `status` and prints something matching `match`.
function(kta status match)
  execute_process(COMMAND ${KTA} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL status)
    message(FATAL_ERROR "kta ${ARGN}: expected exit status ${status}, got ${rc}\nstdout: ${out}\nstderr: ${err}")
  endif()
  if(NOT "${out}${err}" MATCHES "${match}")
    message(FATAL_ERROR "kta ${ARGN}: output does not match '${match}'\nstdout: ${out}\nstderr: ${err}")
  endif()
  set(kta_output "${out}${err}" PARENT_SCOPE)
endfunction()

# The folder checks clean (no error, no warning) and is in canonical form.
function(expect_clean folder)
  kta(0 "^ok: [0-9]+ files?, 1 task" check ${folder})
  kta(0 "" fmt --check ${folder})
endfunction()

# How many `TODO(author):` holes the folder's files hold.
function(count_holes folder out)
  file(GLOB_RECURSE files ${folder}/*)
  set(n 0)
  foreach(f ${files})
    file(STRINGS ${f} lines REGEX "TODO\\(author\\):")
    list(LENGTH lines k)
    math(EXPR n "${n} + ${k}")
  endforeach()
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# `kta eval TASK --device cpu --quick --seeds 1 --json ARGN`, judged:
#   correct  compiled, correct on the visible and the held-out shapes;
#   wrong    compiled and wrong on the visible shapes, against the reference's values (a
#            tolerance failure, so the reference ran);
#   starter_wrong  wrong, while the baseline passes the held-out shapes;
#   skipped  skipped because Triton is not available.
function(expect_eval task expect out_dir)
  file(REMOVE_RECURSE ${out_dir})
  execute_process(COMMAND ${KTA} eval ${task} --device cpu --quick --seeds 1 --json -o ${out_dir} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc STREQUAL "0")
    message(FATAL_ERROR "kta eval ${task} exited with ${rc}\n${err}")
  endif()
  string(JSON name ERROR_VARIABLE jerr GET "${out}" tasks 0 task)
  if(jerr)
    message(FATAL_ERROR "no task result (${jerr})\nstdout: ${out}\nstderr: ${err}")
  endif()
  string(JSON reason GET "${out}" tasks 0 failure_reason)
  string(JSON skipped GET "${out}" tasks 0 skipped)
  if(expect STREQUAL "skipped")
    if(NOT skipped MATCHES "triton not available")
      message(FATAL_ERROR "${name}: expected skipped (triton not available), got '${skipped}' '${reason}'")
    endif()
    return()
  endif()
  string(JSON compiled GET "${out}" tasks 0 compiled)
  string(JSON correct GET "${out}" tasks 0 correct)
  string(JSON held GET "${out}" tasks 0 heldout correct)
  string(JSON baseline_held GET "${out}" tasks 0 heldout baseline_correct)
  if(NOT skipped STREQUAL "" OR NOT compiled)
    message(FATAL_ERROR "${name}: skipped='${skipped}' compiled=${compiled}: ${reason}")
  endif()
  if(expect STREQUAL "correct" AND (NOT correct OR NOT held))
    message(FATAL_ERROR "${name}: expected correct, got correct=${correct} held-out=${held}: ${reason}")
  endif()
  if(expect MATCHES "wrong" AND (correct OR NOT reason MATCHES "outside tolerance"))
    message(FATAL_ERROR "${name}: expected a wrong candidate, got correct=${correct}: ${reason}")
  endif()
  if(expect STREQUAL "starter_wrong" AND NOT baseline_held)
    message(FATAL_ERROR "${name}: expected a correct baseline on the held-out shapes: ${reason}")
  endif()
  message(STATUS "${name}: ${expect} as expected ${reason}")
endfunction()

# Replaces `old` by `new` in `file`; fails when `old` is not there (the scaffold changed).
function(fill file old new)
  file(READ ${file} text)
  string(FIND "${text}" "${old}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${file} has no '${old}' to fill")
  endif()
  string(REPLACE "${old}" "${new}" text "${text}")
  file(WRITE ${file} "${text}")
endfunction()
