# Habits of kta's sources that the test suite keeps true (docs/architecture.md):
#   build.no_getenv        the environment is read only in engine/settings (cmake/no_getenv.py)
#   build.function_length  no function is longer than 80 lines (cmake/function_length.py, which
#                          counts with universal-ctags)
# Each has a self-test on fake trees, and a fake tree that must fail as ctest sees it.
function(kta_source_checks)
  if(NOT KTA_BUILD_TESTS)
    return()
  endif()
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  find_program(KTA_CTAGS NAMES ctags-universal ctags)
  if(NOT KTA_CTAGS)
    set(KTA_CTAGS ctags)  # the test then fails, naming the package to install
  endif()
  set(no_getenv ${PROJECT_SOURCE_DIR}/cmake/no_getenv.py)
  set(function_length ${PROJECT_SOURCE_DIR}/cmake/function_length.py --ctags ${KTA_CTAGS})
  foreach(check no_getenv function_length)
    add_test(NAME build.${check}
             COMMAND Python3::Interpreter ${${check}} --root ${PROJECT_SOURCE_DIR})
    add_test(NAME build.${check}_self_test COMMAND Python3::Interpreter ${${check}} --self-test)
  endforeach()
  add_test(NAME build.no_getenv_fails_on_a_device_read
           COMMAND Python3::Interpreter ${no_getenv} --fake-tree getenv_in_a_device)
  add_test(NAME build.function_length_fails_on_a_long_function
           COMMAND Python3::Interpreter ${function_length} --fake-tree one_line_over)
  set_tests_properties(build.no_getenv_fails_on_a_device_read
                       build.function_length_fails_on_a_long_function PROPERTIES WILL_FAIL TRUE)
  set_tests_properties(build.no_getenv build.no_getenv_self_test
                       build.no_getenv_fails_on_a_device_read build.function_length
                       build.function_length_self_test
                       build.function_length_fails_on_a_long_function
                       PROPERTIES LABELS build TIMEOUT 120)
endfunction()
