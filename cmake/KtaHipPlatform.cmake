# Chooses the HIP platform for the hip device and prepares its headers.
#   KTA_HIP_PLATFORM=auto|amd|nvidia|off
# auto picks amd only for a real AMD GPU stack: ROCm in /opt/rocm, or a HIP whose `hipconfig
# --platform` says amd on a machine with the AMD kernel driver (/dev/kfd). Debian's HIP packages
# alone (libamdhip64-dev, hipcc: installed on CI machines, which have CUDA) do not count: with
# the CUDA toolkit and HIP's headers auto picks nvidia; -DKTA_HIP_PLATFORM=amd builds the amd
# platform anywhere those packages are (docs/hip-amd.md).
# On nvidia, Debian's HIP 5.2 headers do not compile against CUDA 13; the build copies them into
# the build tree and applies cmake/hip-nvidia-cuda13.patch (every change is guarded by
# CUDART_VERSION, so the copy still works with older CUDA). docs/hip-nvidia.md explains the patch.
set(KTA_HIP_PLATFORM "auto" CACHE STRING "HIP platform of the hip device: auto, amd, nvidia or off")
set_property(CACHE KTA_HIP_PLATFORM PROPERTY STRINGS auto amd nvidia off)

find_path(KTA_HIP_HEADERS_ROOT NAMES hip/nvidia_detail/nvidia_hip_runtime_api.h
          PATHS /opt/rocm/include /usr/include)
find_package(CUDAToolkit QUIET)
find_program(KTA_HIPCONFIG hipconfig PATHS /opt/rocm/bin)

# True in `out` when this machine has an AMD GPU stack (see the header comment).
function(kta_rocm_present out)
  set(found FALSE)
  if(EXISTS /opt/rocm/lib/libamdhip64.so)
    set(found TRUE)
  elseif(KTA_HIPCONFIG AND EXISTS /dev/kfd)
    execute_process(COMMAND ${KTA_HIPCONFIG} --platform OUTPUT_VARIABLE hip_platform
                    ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(hip_platform STREQUAL "amd")
      set(found TRUE)
    endif()
  endif()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

set(_platform ${KTA_HIP_PLATFORM})
if(_platform STREQUAL "auto")
  kta_rocm_present(_rocm)
  if(_rocm)
    set(_platform amd)
  elseif(CUDAToolkit_FOUND AND KTA_HIP_HEADERS_ROOT)
    set(_platform nvidia)
  else()
    set(_platform off)
  endif()
endif()
set(KTA_HIP_PLATFORM_RESOLVED ${_platform})
message(STATUS "kta: hip device platform: ${KTA_HIP_PLATFORM_RESOLVED}")

# kta_prepare_hip_nvidia_headers(<out var>): the include dir of the patched copy.
function(kta_prepare_hip_nvidia_headers out)
  if(NOT KTA_HIP_HEADERS_ROOT)
    message(FATAL_ERROR "kta: HIP headers (Debian package libamdhip64-dev) not found")
  endif()
  set(dest ${PROJECT_BINARY_DIR}/hip-nvidia/include)
  set(patch_file ${PROJECT_SOURCE_DIR}/cmake/hip-nvidia-cuda13.patch)
  file(SHA256 ${patch_file} patch_hash)
  set(stamp ${dest}/.kta-patch-${patch_hash})
  if(NOT EXISTS ${stamp})
    find_program(KTA_PATCH patch REQUIRED)
    file(REMOVE_RECURSE ${dest})
    file(MAKE_DIRECTORY ${dest})
    file(COPY ${KTA_HIP_HEADERS_ROOT}/hip DESTINATION ${dest})
    execute_process(COMMAND ${KTA_PATCH} -p1 --quiet -d ${dest} -i ${patch_file}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE log ERROR_VARIABLE log)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "kta: patching HIP's nvidia headers failed:\n${log}")
    endif()
    file(TOUCH ${stamp})
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${patch_file})
  set(${out} ${dest} PARENT_SCOPE)
endfunction()

if(KTA_HIP_PLATFORM_RESOLVED STREQUAL "nvidia")
  kta_prepare_hip_nvidia_headers(KTA_HIP_NVIDIA_INCLUDE_DIR)
endif()
