// What a HIP kernel source needs around it to compile with hipRTC. On NVIDIA hipRTC is NVRTC,
// which cannot include HIP's headers: a prelude maps HIP's device names onto CUDA's. On AMD hipRTC
// knows HIP's device functions but (HIP 5.2) not its macros: a short prelude defines those. On
// both, the headers a kernel includes (hip/hip_runtime.h, stdint.h, math.h, ...) are small
// virtual headers.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace kta::engine::hip {

// Bumped whenever the prelude or the virtual headers change: part of every cache key.
inline constexpr int kPreludeVersion = 4;

// Text placed before the kernel `source` (which follows after a #line directive). The half and
// bfloat16 headers cost NVRTC tens of milliseconds to parse: they are included only when the
// source mentions those types.
std::string rtc_prelude(const std::string& source);

// (include name, contents) pairs handed to hiprtcCreateProgram as headers.
const std::vector<std::pair<std::string, std::string>>& rtc_virtual_headers();

}  // namespace kta::engine::hip
