// Every HIP runtime call of the hip device goes through KTA_HIP: it turns a failed call into a
// message naming the call, HIP's error name and text, and where in kta it happened.
#pragma once

#include <hip/hip_runtime.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

namespace kta::engine::hip {

inline std::string hip_error_text(hipError_t e) {
  std::string text = hipGetErrorString(e), name = hipGetErrorName(e);
  return text == name ? name : text + " (" + name + ")";  // HIP 5.2 on AMD: the text is the name
}

// Why hipGetDeviceCount failed, in words a user can act on.
inline std::string no_gpu_reason(hipError_t e) {
#if defined(__HIP_PLATFORM_AMD__)
  // ROCm reaches AMD GPUs through the amdgpu kernel driver's /dev/kfd.
  if (access("/dev/kfd", F_OK) != 0)
    return "no AMD GPU driver on this machine (/dev/kfd not found; " + hip_error_text(e) + ")";
  if (access("/dev/kfd", R_OK | W_OK) != 0)
    return "cannot open /dev/kfd (is this user in the render group?): " + hip_error_text(e);
#endif
  return "no usable GPU: " + hip_error_text(e);
}

// Empty on success, else "hipMalloc(&p, n): out of memory (hipErrorOutOfMemory)
// [hip_device.cpp:42]".
inline std::string hip_check(hipError_t e, const char* call, const char* file, int line) {
  if (e == hipSuccess) return {};
  std::string f = file;
  size_t slash = f.rfind('/');
  if (slash != std::string::npos) f = f.substr(slash + 1);
  return std::string(call) + ": " + hip_error_text(e) + " [" + f + ":" + std::to_string(line) + "]";
}

// Throws std::runtime_error with that message: for calls whose failure is a kta or setup fault
// (alloc, copies), not a candidate outcome.
inline void hip_require(hipError_t e, const char* call, const char* file, int line) {
  std::string m = hip_check(e, call, file, line);
  if (!m.empty()) throw std::runtime_error("hip device: " + m);
}

}  // namespace kta::engine::hip

#define KTA_HIP(call) ::kta::engine::hip::hip_check((call), #call, __FILE__, __LINE__)
#define KTA_HIP_REQUIRE(call) ::kta::engine::hip::hip_require((call), #call, __FILE__, __LINE__)
