# Every dependency is a Debian 12 package; cmake/setup.sh installs them.
find_package(pegtl 3.2 REQUIRED CONFIG)
find_package(fmt 9 REQUIRED CONFIG)
find_package(nlohmann_json 3 REQUIRED CONFIG)
find_package(CLI11 REQUIRED CONFIG)
find_package(SQLite3 REQUIRED)
find_package(Threads REQUIRED)
find_package(Boost 1.74 REQUIRED COMPONENTS context)
# HMAC-SHA256 of cache entries (engine/ipc/cache_key.h): libssl-dev.
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
if(KTA_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
# The diff of `kta fmt --check` (lang/format.cpp): the header-only dtl, libdtl-dev.
find_path(KTA_DTL_INCLUDE_DIR dtl/dtl.hpp)
if(NOT KTA_DTL_INCLUDE_DIR)
  message(FATAL_ERROR "kta: dtl/dtl.hpp not found; install the Debian package libdtl-dev "
                      "(cmake/setup.sh does)")
endif()
