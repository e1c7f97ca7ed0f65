// The one C entry point of libkta_hip.so, shared by the plugin and its loader. The library
// links the GPU runtime (on NVIDIA: libcudart, libnvrtc and the driver's libcuda.so.1), so kta
// opens it only when a hip device is asked for and still starts on machines without a driver.
#pragma once

#include <cstddef>

#include "engine/device/device.h"

#define KTA_HIP_PLUGIN_ENTRY "kta_hip_create_device"
#define KTA_HIP_PLUGIN_COUNT_ENTRY "kta_hip_device_count"

namespace kta::engine::hip {

// Both sides must agree on the C++ types that cross the boundary; a plugin from another build
// is refused instead of misreading them.
inline constexpr unsigned long kPluginAbi =
    1000000ul * 5 + sizeof(DeviceOptions) * 1000 + sizeof(DeviceInfo) + sizeof(LaunchResult) * 7 +
    sizeof(CompileResult) * 13 + sizeof(KernelArg) * 17 + sizeof(CompileRequest) * 19;

}  // namespace kta::engine::hip

// Creates the hip device number `ordinal` with `options` in *out and returns 0, or writes why
// not into error (NUL-terminated, at most error_size bytes) and returns nonzero.
extern "C" typedef int (*kta_hip_create_device_fn)(unsigned long abi,
                                                   const kta::engine::DeviceOptions* options,
                                                   int ordinal, kta::engine::Device** out,
                                                   char* error, size_t error_size);

// The number of GPUs the runtime sees (no context is created), or -1 with the reason in error.
extern "C" typedef int (*kta_hip_device_count_fn)(char* error, size_t error_size);
