#include "engine/device/hip/rtc/hiprtc_prelude.h"

namespace kta::engine::hip {
namespace {

// HIP's thread-index macros, which neither NVRTC nor HIP 5.2's hipRTC defines: part of both
// platforms' preludes.
constexpr const char* kIndexMacros = R"KTA(#ifndef hipThreadIdx_x
#define hipThreadIdx_x threadIdx.x
#define hipThreadIdx_y threadIdx.y
#define hipThreadIdx_z threadIdx.z
#define hipBlockIdx_x blockIdx.x
#define hipBlockIdx_y blockIdx.y
#define hipBlockIdx_z blockIdx.z
#define hipBlockDim_x blockDim.x
#define hipBlockDim_y blockDim.y
#define hipBlockDim_z blockDim.z
#define hipGridDim_x gridDim.x
#define hipGridDim_y gridDim.y
#define hipGridDim_z gridDim.z
#endif
)KTA";

#if defined(__HIP_PLATFORM_NVIDIA__)
// HIP's non-_sync warp functions are not valid on sm_70 and later (ptxas rejects 'vote' without
// '.sync'): they map to the _sync forms over the full warp, as HIP's own nvidia headers intend.
// Macros rather than overloads, because CUDA's headers still declare the legacy names for old
// architectures and an overload would be ambiguous with them.
constexpr const char* kHalf = "#include <cuda_fp16.h>\n";
constexpr const char* kBfloat16 = R"KTA(#include <cuda_bf16.h>
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
typedef __nv_bfloat16 hip_bfloat16;
)KTA";

constexpr const char* kPrelude = R"KTA(// kta prelude: HIP device names for NVRTC
#define __HIP_PLATFORM_NVIDIA__ 1
#define __HIP_PLATFORM_NVCC__ 1
#define __HIPCC__ 1
#define __HIPCC_RTC__ 1
#define __HIP_DEVICE_COMPILE__ 1
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(x) x
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
namespace kta_hip {
__device__ __forceinline__ unsigned long long ballot(int p) { return __ballot_sync(0xffffffffu, p); }
__device__ __forceinline__ int any(int p) { return __any_sync(0xffffffffu, p); }
__device__ __forceinline__ int all(int p) { return __all_sync(0xffffffffu, p); }
template <class T> __device__ __forceinline__ T shfl(T v, int src, int width = 32) {
  return __shfl_sync(0xffffffffu, v, src, width);
}
template <class T> __device__ __forceinline__ T shfl_up(T v, unsigned int d, int width = 32) {
  return __shfl_up_sync(0xffffffffu, v, d, width);
}
template <class T> __device__ __forceinline__ T shfl_down(T v, unsigned int d, int width = 32) {
  return __shfl_down_sync(0xffffffffu, v, d, width);
}
template <class T> __device__ __forceinline__ T shfl_xor(T v, int mask, int width = 32) {
  return __shfl_xor_sync(0xffffffffu, v, mask, width);
}
__device__ __forceinline__ unsigned int lane_id() { return threadIdx.x & 31u; }
}  // namespace kta_hip
#define __ballot(p) kta_hip::ballot(p)
#define __any(p) kta_hip::any(p)
#define __all(p) kta_hip::all(p)
#define __shfl(...) kta_hip::shfl(__VA_ARGS__)
#define __shfl_up(...) kta_hip::shfl_up(__VA_ARGS__)
#define __shfl_down(...) kta_hip::shfl_down(__VA_ARGS__)
#define __shfl_xor(...) kta_hip::shfl_xor(__VA_ARGS__)
#define __lane_id() kta_hip::lane_id()
#define __syncwarp_all() __syncwarp()
)KTA";

constexpr const char* kAssert = R"KTA(#pragma once
#define assert(e) ((e) ? (void)0 : __trap())
)KTA";
#else
// hipRTC on AMD pre-includes HIP's device headers as a precompiled header, but (HIP 5.2) without
// their macros: the index macros and HIP_DYNAMIC_SHARED are missing, so are the platform macros.
// Everything else (threadIdx, __half, __shfl_xor, __ballot, math functions) is there.
constexpr const char* kPrelude = R"KTA(// kta prelude: HIP's macros for hipRTC on AMD
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#ifndef __HIP_PLATFORM_HCC__
#define __HIP_PLATFORM_HCC__ 1
#endif
#ifndef __HIPCC__
#define __HIPCC__ 1
#endif
#ifndef HIP_DYNAMIC_SHARED
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#endif
#ifndef HIP_KERNEL_NAME
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#endif
#ifndef HIP_SYMBOL
#define HIP_SYMBOL(x) x
#endif
)KTA";

constexpr const char* kAssert = R"KTA(#pragma once
#define assert(e) ((e) ? (void)0 : __builtin_trap())
)KTA";
#endif

// hipRTC has no C library headers on either platform (on AMD the HIP runtime header defines only
// the 32- and 64-bit integer types, as these do).

constexpr const char* kStdint = R"KTA(#pragma once
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long long intptr_t;
typedef unsigned long long uintptr_t;
typedef long long intmax_t;
typedef unsigned long long uintmax_t;
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295u
#define INT64_MIN (-9223372036854775807ll - 1)
#define INT64_MAX 9223372036854775807ll
#define UINT64_MAX 18446744073709551615ull
#define SIZE_MAX UINT64_MAX
)KTA";

constexpr const char* kMath = R"KTA(#pragma once
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#define HUGE_VALF INFINITY
#define HUGE_VAL __longlong_as_double(0x7ff0000000000000ll)
#define M_E 2.7182818284590452354
#define M_LOG2E 1.4426950408889634074
#define M_LN2 0.69314718055994530942
#define M_PI 3.14159265358979323846
#define M_PI_2 1.57079632679489661923
#define M_1_PI 0.31830988618379067154
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2 1.41421356237309504880
#define M_SQRT1_2 0.70710678118654752440
)KTA";

constexpr const char* kFloat = R"KTA(#pragma once
#define FLT_MAX 3.402823466e+38F
#define FLT_MIN 1.175494351e-38F
#define FLT_EPSILON 1.192092896e-07F
#define FLT_MANT_DIG 24
#define DBL_MAX 1.7976931348623158e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-016
#define DBL_MANT_DIG 53
)KTA";

constexpr const char* kLimits = R"KTA(#pragma once
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295u
#define LONG_MIN (-9223372036854775807l - 1)
#define LONG_MAX 9223372036854775807l
#define ULONG_MAX 18446744073709551615ul
#define LLONG_MIN (-9223372036854775807ll - 1)
#define LLONG_MAX 9223372036854775807ll
#define ULLONG_MAX 18446744073709551615ull
)KTA";

}  // namespace

std::string rtc_prelude(const std::string& source) {
#if defined(__HIP_PLATFORM_NVIDIA__)
  std::string text;
  if (source.find("half") != std::string::npos || source.find("fp16") != std::string::npos)
    text += kHalf;
  if (source.find("bfloat16") != std::string::npos || source.find("bf16") != std::string::npos)
    text += kBfloat16;
  return text + kPrelude + kIndexMacros;
#else
  (void)source;
  return std::string(kPrelude) + kIndexMacros;
#endif
}

const std::vector<std::pair<std::string, std::string>>& rtc_virtual_headers() {
#if defined(__HIP_PLATFORM_NVIDIA__)
  constexpr const char* kCooperativeGroups = "#include <cooperative_groups.h>\n";
#else
  constexpr const char* kCooperativeGroups = "#pragma once\n";  // HIP 5.2's hipRTC has none
#endif
  // Not empty: HIP 5.2's hipRTC refuses a program with an empty header.
  constexpr const char* kProvided = "#pragma once\n";
  // The prelude (NVIDIA) or hipRTC's precompiled runtime (AMD) already declares everything the
  // HIP headers would: they are (nearly) empty here. On AMD the real ones must not be found: they
  // would redefine what the precompiled header holds (Debian's are on the default include path).
  static const std::vector<std::pair<std::string, std::string>> headers = {
      {"hip/hip_runtime.h", kProvided},
      {"hip/hip_runtime_api.h", kProvided},
      {"hip_runtime.h", kProvided},
      {"hip/hip_fp16.h", kProvided},
      {"hip/hip_bf16.h", kProvided},
      {"hip/hip_bfloat16.h", kProvided},
      {"hip/hip_vector_types.h", kProvided},
      {"hip/math_functions.h", kProvided},
      {"hip/device_functions.h", kProvided},
      {"hip/hip_cooperative_groups.h", kCooperativeGroups},
      {"stdint.h", kStdint},
      {"cstdint", kStdint},
      {"inttypes.h", kStdint},
      {"math.h", kMath},
      {"cmath", kMath},
      {"float.h", kFloat},
      {"cfloat", kFloat},
      {"limits.h", kLimits},
      {"climits", kLimits},
      {"stddef.h", kProvided},
      {"cstddef", kProvided},
      {"stdio.h", kProvided},
      {"cstdio", kProvided},
      {"assert.h", kAssert},
      {"cassert", kAssert},
  };
  return headers;
}

}  // namespace kta::engine::hip
