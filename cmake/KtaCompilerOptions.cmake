# Warnings for kta's own targets: call kta_target_warnings(target) on each.
function(kta_target_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wno-missing-field-initializers)
  if(KTA_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

find_program(KTA_CCACHE ccache)
if(KTA_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_C_COMPILER_LAUNCHER ${KTA_CCACHE})
  set(CMAKE_CXX_COMPILER_LAUNCHER ${KTA_CCACHE})
endif()
