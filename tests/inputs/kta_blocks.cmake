# The engine's building blocks (inputs, check, measure, results, score) as their own library for
# their unit tests: they depend on nothing else of the engine, so their tests build and run
# without the rest of kta_engine.
if(NOT TARGET kta_test_blocks)
  set(_kta_blocks_root ${PROJECT_SOURCE_DIR}/engine)
  file(GLOB KTA_TEST_BLOCKS_SOURCES CONFIGURE_DEPENDS
       ${_kta_blocks_root}/inputs/*.cpp ${_kta_blocks_root}/check/*.cpp
       ${_kta_blocks_root}/measure/*.cpp ${_kta_blocks_root}/results/*.cpp
       ${_kta_blocks_root}/score/*.cpp)
  add_library(kta_test_blocks STATIC ${KTA_TEST_BLOCKS_SOURCES})
  target_include_directories(kta_test_blocks PUBLIC ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/engine)
  target_link_libraries(kta_test_blocks PUBLIC fmt::fmt nlohmann_json::nlohmann_json
                        SQLite::SQLite3 Threads::Threads)
  kta_target_warnings(kta_test_blocks)
endif()
