# One target per folder, and the folder graph a DAG that the build enforces (docs/architecture.md).
#
#   kta_folder_library(NAME <target> FOLDER <folder>
#                      [DEPENDS <kta folder targets>...]  linked PUBLIC: their headers and code
#                      [HEADERS <kta folder targets>...]  headers only (inline code), never linked
#                      [LIBS <third-party>...] [PRIVATE_LIBS <third-party>...]
#                      [EXCLUDE <regex>] [RECURSE] [MODULE] [EXECUTABLE] [ENABLED <bool>])
#
# <folder> is relative to the project root (lang, engine/plan, engine/device/cpu). The target is
# made from the folder's *.cpp (subfolders only with RECURSE; a subfolder with a target of its own
# is another folder): a STATIC library, an INTERFACE library when the folder has no .cpp, a MODULE
# or an executable when asked. Every folder a target names must have been declared before it, so
# the declared graph is acyclic by construction; declare folders in dependency order.
#
# Enforcement:
#   link time     each STATIC folder library X also gets X_linkcheck, a shared object of X's own
#                 objects linked with -Wl,--no-undefined against only the link checks of DEPENDS
#                 (and, through them, their DEPENDS): code that calls into a folder X does not
#                 declare, or into a HEADERS folder out of line, fails to link. It is part of ALL.
#                 MODULEs and executables are complete links already and check themselves.
#   include time  kta_folder_dag_finish() writes the declared graph to
#                 <build>/kta_folder_dag.json; cmake/folder_dag.py (ctest build.folder_dag) fails
#                 on any #include of a folder outside the includer's declared (transitive)
#                 dependencies and on any cycle.
# ENABLED OFF (the hip device without a HIP platform, the analyzers without clang) makes no target
# but still declares the folder, so its sources are checked all the same.

define_property(GLOBAL PROPERTY KTA_FOLDER_TARGETS
                BRIEF_DOCS "kta folder targets, in declaration order" FULL_DOCS "KtaFolders.cmake")

function(kta_folder_library)
  cmake_parse_arguments(PARSE_ARGV 0 arg "RECURSE;MODULE;EXECUTABLE" "NAME;FOLDER;EXCLUDE;ENABLED"
                        "DEPENDS;HEADERS;LIBS;PRIVATE_LIBS")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_NAME OR NOT arg_FOLDER)
    message(FATAL_ERROR "kta_folder_library: bad arguments ${arg_UNPARSED_ARGUMENTS} (NAME and "
                        "FOLDER are required)")
  endif()
  get_property(declared GLOBAL PROPERTY KTA_FOLDER_TARGETS)
  if(arg_NAME IN_LIST declared)
    message(FATAL_ERROR "kta_folder_library: ${arg_NAME} declared twice")
  endif()
  foreach(dep IN LISTS arg_DEPENDS arg_HEADERS)
    if(NOT dep IN_LIST declared)
      message(FATAL_ERROR "kta_folder_library(${arg_NAME}): ${dep} is not a folder target declared "
                          "before it; folders are declared in dependency order (a dependency on a "
                          "later folder would be a back-edge)")
    endif()
    get_property(dep_kind GLOBAL PROPERTY KTA_FOLDER_${dep}_KIND)
    if(dep_kind STREQUAL "MODULE" OR dep_kind STREQUAL "EXECUTABLE")
      message(FATAL_ERROR "kta_folder_library(${arg_NAME}): ${dep} is a ${dep_kind}; nothing may "
                          "depend on it")
    endif()
  endforeach()

  set(dir ${PROJECT_SOURCE_DIR}/${arg_FOLDER})
  if(NOT IS_DIRECTORY ${dir})
    message(FATAL_ERROR "kta_folder_library(${arg_NAME}): no folder ${arg_FOLDER}")
  endif()
  if(arg_RECURSE)
    file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  else()
    file(GLOB sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  endif()
  if(arg_EXCLUDE)
    list(FILTER sources EXCLUDE REGEX "${arg_EXCLUDE}")
  endif()
  if(arg_MODULE)
    set(kind MODULE)
  elseif(arg_EXECUTABLE)
    set(kind EXECUTABLE)
  elseif(sources)
    set(kind STATIC)
  else()
    set(kind INTERFACE)
  endif()

  set_property(GLOBAL APPEND PROPERTY KTA_FOLDER_TARGETS ${arg_NAME})
  set_property(GLOBAL PROPERTY KTA_FOLDER_${arg_NAME}_FOLDER ${arg_FOLDER})
  set_property(GLOBAL PROPERTY KTA_FOLDER_${arg_NAME}_DEPENDS ${arg_DEPENDS})
  set_property(GLOBAL PROPERTY KTA_FOLDER_${arg_NAME}_HEADERS ${arg_HEADERS})
  set_property(GLOBAL PROPERTY KTA_FOLDER_${arg_NAME}_KIND ${kind})
  if(DEFINED arg_ENABLED AND NOT arg_ENABLED)
    return()
  endif()

  # A HEADERS folder lends its include directories, not its code.
  set(header_dirs "")
  foreach(dep IN LISTS arg_HEADERS)
    if(TARGET ${dep})
      list(APPEND header_dirs $<TARGET_PROPERTY:${dep},INTERFACE_INCLUDE_DIRECTORIES>)
    endif()
  endforeach()

  if(kind STREQUAL "INTERFACE")
    add_library(${arg_NAME} INTERFACE)
    target_include_directories(${arg_NAME} INTERFACE ${PROJECT_SOURCE_DIR} ${header_dirs})
    target_link_libraries(${arg_NAME} INTERFACE ${arg_DEPENDS} ${arg_LIBS})
  else()
    if(kind STREQUAL "EXECUTABLE")
      add_executable(${arg_NAME} ${sources})
      set(scope PRIVATE)
    elseif(kind STREQUAL "MODULE")
      add_library(${arg_NAME} MODULE ${sources})
      target_link_options(${arg_NAME} PRIVATE -Wl,--no-undefined)
      set(scope PRIVATE)
    else()
      add_library(${arg_NAME} STATIC ${sources})
      set(scope PUBLIC)
    endif()
    target_include_directories(${arg_NAME} ${scope} ${PROJECT_SOURCE_DIR} ${header_dirs})
    target_link_libraries(${arg_NAME} ${scope} ${arg_DEPENDS} ${arg_LIBS}
                          PRIVATE ${arg_PRIVATE_LIBS})
    kta_target_warnings(${arg_NAME})
  endif()

  # The link check: INTERFACE for a header-only folder (it only forwards its dependencies' checks).
  set(check ${arg_NAME}_linkcheck)
  set(dep_checks "")
  foreach(dep IN LISTS arg_DEPENDS)
    if(TARGET ${dep}_linkcheck)
      list(APPEND dep_checks ${dep}_linkcheck)
    endif()
  endforeach()
  if(kind STREQUAL "INTERFACE")
    add_library(${check} INTERFACE)
    target_link_libraries(${check} INTERFACE ${dep_checks} ${arg_LIBS})
  elseif(kind STREQUAL "STATIC")
    add_library(${check} SHARED $<TARGET_OBJECTS:${arg_NAME}>)
    target_link_libraries(${check} PUBLIC ${dep_checks} ${arg_LIBS} PRIVATE ${arg_PRIVATE_LIBS})
    # Only the link matters: no debug info to write, nothing to install or run.
    target_link_options(${check} PRIVATE -Wl,--no-undefined -Wl,--strip-debug)
    set_target_properties(${check} PROPERTIES LINKER_LANGUAGE CXX
                          LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/linkcheck)
  endif()
endfunction()

# An executable whose sources are a folder (the kta binary: engine/cli).
function(kta_folder_executable)
  kta_folder_library(${ARGN} EXECUTABLE)
endfunction()

# Writes the declared graph for cmake/folder_dag.py and registers its tests; call once, after the
# last folder.
function(kta_folder_dag_finish)
  get_property(targets GLOBAL PROPERTY KTA_FOLDER_TARGETS)
  set(entries "")
  foreach(t IN LISTS targets)
    get_property(folder GLOBAL PROPERTY KTA_FOLDER_${t}_FOLDER)
    get_property(kind GLOBAL PROPERTY KTA_FOLDER_${t}_KIND)
    foreach(what DEPENDS HEADERS)
      get_property(deps GLOBAL PROPERTY KTA_FOLDER_${t}_${what})
      set(${what} "")
      foreach(d IN LISTS deps)
        get_property(df GLOBAL PROPERTY KTA_FOLDER_${d}_FOLDER)
        list(APPEND ${what} "\"${df}\"")
      endforeach()
      list(JOIN ${what} ", " ${what})
    endforeach()
    set(entry "    \"${folder}\": {\"target\": \"${t}\", \"kind\": \"${kind}\", ")
    string(APPEND entry "\"depends\": [${DEPENDS}], \"headers\": [${HEADERS}]}")
    list(APPEND entries "${entry}")
  endforeach()
  list(JOIN entries ",\n" entries)
  file(CONFIGURE OUTPUT ${PROJECT_BINARY_DIR}/kta_folder_dag.json
       CONTENT "{\n  \"folders\": {\n${entries}\n  }\n}\n" @ONLY)

  if(NOT KTA_BUILD_TESTS)
    return()
  endif()
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  set(script ${PROJECT_SOURCE_DIR}/cmake/folder_dag.py)
  add_test(NAME build.folder_dag
           COMMAND Python3::Interpreter ${script} --root ${PROJECT_SOURCE_DIR}
                   --dag ${PROJECT_BINARY_DIR}/kta_folder_dag.json)
  # The checker finds what it must: fake trees with a back-edge, an undeclared folder, a declared
  # cycle and an include cycle each fail with the expected message; a clean one passes.
  add_test(NAME build.folder_dag_self_test COMMAND Python3::Interpreter ${script} --self-test)
  # The same, seen from ctest: the checker on a fake tree with a back-edge and a cycle exits 1.
  add_test(NAME build.folder_dag_fails_on_back_edge
           COMMAND Python3::Interpreter ${script} --fake-tree back_edge_and_cycle)
  set_tests_properties(build.folder_dag_fails_on_back_edge PROPERTIES WILL_FAIL TRUE)
  # The link check fails a back-edge: a two-folder project whose lower folder calls the upper one
  # does not build, and builds once the call is gone.
  add_test(NAME build.folder_link_check
           COMMAND ${CMAKE_COMMAND} -DSOURCE=${PROJECT_SOURCE_DIR}
                   -DBINARY=${PROJECT_BINARY_DIR}/folder-link-check
                   -DGENERATOR=${CMAKE_GENERATOR} -DCXX=${CMAKE_CXX_COMPILER}
                   -P ${PROJECT_SOURCE_DIR}/cmake/folder_link_check_test.cmake)
  set_tests_properties(build.folder_dag build.folder_dag_self_test
                       build.folder_dag_fails_on_back_edge build.folder_link_check
                       PROPERTIES LABELS build TIMEOUT 120)
endfunction()
