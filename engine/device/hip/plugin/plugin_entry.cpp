// The C entry point the loader resolves (engine/device/hip/hip_plugin_abi.h).
#include <cstdio>
#include <exception>

#include "engine/device/hip/hip_plugin_abi.h"
#include "engine/device/hip/plugin/hip_check.h"
#include "engine/device/hip/plugin/hip_device.h"

extern "C" __attribute__((visibility("default"))) int kta_hip_create_device(
    unsigned long abi, const kta::engine::DeviceOptions* options, int ordinal,
    kta::engine::Device** out, char* error, size_t error_size) {
  auto say = [&](const std::string& why) {
    if (error != nullptr && error_size > 0) std::snprintf(error, error_size, "%s", why.c_str());
    return 1;
  };
  if (abi != kta::engine::hip::kPluginAbi)
    return say("the hip plugin was built for another kta build");
  if (out == nullptr || options == nullptr) return say("kta_hip_create_device: null argument");
  try {
    *out = new kta::engine::hip::HipDevice(ordinal, *options);
    return 0;
  } catch (const std::exception& e) {
    return say(e.what());
  }
}

extern "C" __attribute__((visibility("default"))) int kta_hip_device_count(char* error,
                                                                           size_t error_size) {
  int count = 0;
  hipError_t e = hipGetDeviceCount(&count);
  if (e == hipSuccess) return count;
  if (error != nullptr && error_size > 0)
    std::snprintf(error, error_size, "%s", kta::engine::hip::no_gpu_reason(e).c_str());
  return -1;
}
