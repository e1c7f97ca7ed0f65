// State shared by the cpu runtime library's translation units (not part of its interface).
#pragma once

#include <stdexcept>
#include <string>

#include "engine/runtime/kta/cpu_runtime.h"

#define KTA_WARP_SIZE_DEFAULT 64

namespace kta_rt {

const RuntimeConfig& config();

// A device-side failure (assert, trap, barrier misuse): unwinds the GPU thread, fails the launch.
class DeviceFault : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kta_rt
