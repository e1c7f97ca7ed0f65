#include "engine/device/hip/rtc/hiprtc_prelude.h"

#include <regex>

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

// HIP's vector types have arithmetic operators (float4 + float4, float4 * s, +=, unary -); CUDA's
// have none, so a kernel written for HIP would not compile here without them. Included when the
// source names a vector type. double3/double4 are left out: CUDA 13 deprecates them.
constexpr const char* kVectorOps = R"KTA(// kta prelude: HIP's vector arithmetic
typedef unsigned int kta_uint;
#define KTA_VOP2(T, S, OP)                                                                       \
  __device__ __forceinline__ T operator OP(T a, T b) { T r; r.x = a.x OP b.x; r.y = a.y OP b.y; return r; } \
  __device__ __forceinline__ T operator OP(T a, S s) { T r; r.x = a.x OP s; r.y = a.y OP s; return r; } \
  __device__ __forceinline__ T operator OP(S s, T a) { T r; r.x = s OP a.x; r.y = s OP a.y; return r; } \
  __device__ __forceinline__ T& operator OP##=(T& a, T b) { a = a OP b; return a; }               \
  __device__ __forceinline__ T& operator OP##=(T& a, S s) { a = a OP s; return a; }
#define KTA_VOP3(T, S, OP)                                                                       \
  __device__ __forceinline__ T operator OP(T a, T b) { T r; r.x = a.x OP b.x; r.y = a.y OP b.y; r.z = a.z OP b.z; return r; } \
  __device__ __forceinline__ T operator OP(T a, S s) { T r; r.x = a.x OP s; r.y = a.y OP s; r.z = a.z OP s; return r; } \
  __device__ __forceinline__ T operator OP(S s, T a) { T r; r.x = s OP a.x; r.y = s OP a.y; r.z = s OP a.z; return r; } \
  __device__ __forceinline__ T& operator OP##=(T& a, T b) { a = a OP b; return a; }               \
  __device__ __forceinline__ T& operator OP##=(T& a, S s) { a = a OP s; return a; }
#define KTA_VOP4(T, S, OP)                                                                       \
  __device__ __forceinline__ T operator OP(T a, T b) { T r; r.x = a.x OP b.x; r.y = a.y OP b.y; r.z = a.z OP b.z; r.w = a.w OP b.w; return r; } \
  __device__ __forceinline__ T operator OP(T a, S s) { T r; r.x = a.x OP s; r.y = a.y OP s; r.z = a.z OP s; r.w = a.w OP s; return r; } \
  __device__ __forceinline__ T operator OP(S s, T a) { T r; r.x = s OP a.x; r.y = s OP a.y; r.z = s OP a.z; r.w = s OP a.w; return r; } \
  __device__ __forceinline__ T& operator OP##=(T& a, T b) { a = a OP b; return a; }               \
  __device__ __forceinline__ T& operator OP##=(T& a, S s) { a = a OP s; return a; }
#define KTA_VOPS(N, T, S) KTA_VOP##N(T, S, +) KTA_VOP##N(T, S, -) KTA_VOP##N(T, S, *) KTA_VOP##N(T, S, /) \
  __device__ __forceinline__ T operator-(T a) { return S(0) - a; }
KTA_VOPS(2, float2, float) KTA_VOPS(3, float3, float) KTA_VOPS(4, float4, float)
KTA_VOPS(2, int2, int) KTA_VOPS(3, int3, int) KTA_VOPS(4, int4, int)
KTA_VOPS(2, uint2, kta_uint) KTA_VOPS(3, uint3, kta_uint) KTA_VOPS(4, uint4, kta_uint)
KTA_VOPS(2, double2, double)
#undef KTA_VOPS
#undef KTA_VOP2
#undef KTA_VOP3
#undef KTA_VOP4
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
// HIP 5.2 has no _sync warp functions and no __activemask (HIP 6.2 added them): the mask-taking
// forms map to the full-wavefront ones, as on the cpu device. Macros reach the user's code only
// (hipRTC's runtime header is precompiled), so a hipRTC that has them is unaffected.
#define __shfl_sync(mask, ...) __shfl(__VA_ARGS__)
#define __shfl_up_sync(mask, ...) __shfl_up(__VA_ARGS__)
#define __shfl_down_sync(mask, ...) __shfl_down(__VA_ARGS__)
#define __shfl_xor_sync(mask, ...) __shfl_xor(__VA_ARGS__)
#define __ballot_sync(mask, p) __ballot(p)
#define __any_sync(mask, p) __any(p)
#define __all_sync(mask, p) __all(p)
#define __activemask() __ballot(1)
)KTA";

constexpr const char* kAssert = R"KTA(#pragma once
#define assert(e) ((e) ? (void)0 : __builtin_trap())
)KTA";
#endif

// hipRTC has no C library headers on either platform (on AMD the HIP runtime header defines only
// the 32- and 64-bit integer types, as these do).
//
// The C library's constants, which HIP's own headers give device code without an include
// (hipcc's runtime wrapper pulls in <cmath>, <climits>, <cfloat> and <cstdint>): every kernel that
// compiles with hipcc or on the cpu device may use them bare. Each is guarded, because hipRTC's
// precompiled runtime on AMD defines some of them. The prelude includes these headers; a kernel's
// own `#include <math.h>` then finds them already included.
struct Constant {
  const char* name;
  const char* value;
};

// NVRTC has no __builtin_huge_valf: CUDA's own math_constants.h spells these with bit casts.
#if defined(__HIP_PLATFORM_NVIDIA__)
constexpr const char* kInfF = "__int_as_float(0x7f800000)";
constexpr const char* kNanF = "__int_as_float(0x7fffffff)";
constexpr const char* kInf = "__longlong_as_double(0x7ff0000000000000ll)";
#else
constexpr const char* kInfF = "__builtin_huge_valf()";
constexpr const char* kNanF = "__builtin_nanf(\"\")";
constexpr const char* kInf = "__builtin_huge_val()";
#endif

constexpr Constant kMathConstants[] = {
    {"INFINITY", kInfF},
    {"NAN", kNanF},
    {"HUGE_VALF", kInfF},
    {"HUGE_VAL", kInf},
    {"M_E", "2.7182818284590452354"},
    {"M_LOG2E", "1.4426950408889634074"},
    {"M_LOG10E", "0.43429448190325182765"},
    {"M_LN2", "0.69314718055994530942"},
    {"M_LN10", "2.30258509299404568402"},
    {"M_PI", "3.14159265358979323846"},
    {"M_PI_2", "1.57079632679489661923"},
    {"M_PI_4", "0.78539816339744830962"},
    {"M_1_PI", "0.31830988618379067154"},
    {"M_2_PI", "0.63661977236758134308"},
    {"M_2_SQRTPI", "1.12837916709551257390"},
    {"M_SQRT2", "1.41421356237309504880"},
    {"M_SQRT1_2", "0.70710678118654752440"},
};

constexpr Constant kFloatConstants[] = {
    {"FLT_MAX", "3.40282346638528859812e+38F"},
    {"FLT_MIN", "1.17549435082228750797e-38F"},
    {"FLT_EPSILON", "1.1920928955078125e-07F"},
    {"FLT_TRUE_MIN", "1.40129846432481707092e-45F"},
    {"FLT_MANT_DIG", "24"},
    {"FLT_DIG", "6"},
    {"FLT_MAX_EXP", "128"},
    {"FLT_MIN_EXP", "(-125)"},
    {"FLT_RADIX", "2"},
    {"DBL_MAX", "1.79769313486231570815e+308"},
    {"DBL_MIN", "2.22507385850720138309e-308"},
    {"DBL_EPSILON", "2.22044604925031308085e-16"},
    {"DBL_TRUE_MIN", "4.94065645841246544177e-324"},
    {"DBL_MANT_DIG", "53"},
    {"DBL_DIG", "15"},
    {"DBL_MAX_EXP", "1024"},
    {"DBL_MIN_EXP", "(-1021)"},
};

constexpr Constant kLimitConstants[] = {
    {"CHAR_BIT", "8"},
    {"SCHAR_MIN", "(-128)"},
    {"SCHAR_MAX", "127"},
    {"UCHAR_MAX", "255"},
    {"CHAR_MIN", "SCHAR_MIN"},
    {"CHAR_MAX", "SCHAR_MAX"},
    {"SHRT_MIN", "(-32768)"},
    {"SHRT_MAX", "32767"},
    {"USHRT_MAX", "65535"},
    {"INT_MIN", "(-2147483647 - 1)"},
    {"INT_MAX", "2147483647"},
    {"UINT_MAX", "4294967295u"},
    {"LONG_MIN", "(-9223372036854775807l - 1)"},
    {"LONG_MAX", "9223372036854775807l"},
    {"ULONG_MAX", "18446744073709551615ul"},
    {"LLONG_MIN", "(-9223372036854775807ll - 1)"},
    {"LLONG_MAX", "9223372036854775807ll"},
    {"ULLONG_MAX", "18446744073709551615ull"},
};

constexpr Constant kStdintConstants[] = {
    {"INT8_MIN", "(-128)"},
    {"INT8_MAX", "127"},
    {"UINT8_MAX", "255"},
    {"INT16_MIN", "(-32768)"},
    {"INT16_MAX", "32767"},
    {"UINT16_MAX", "65535"},
    {"INT32_MIN", "(-2147483647 - 1)"},
    {"INT32_MAX", "2147483647"},
    {"UINT32_MAX", "4294967295u"},
    {"INT64_MIN", "(-9223372036854775807ll - 1)"},
    {"INT64_MAX", "9223372036854775807ll"},
    {"UINT64_MAX", "18446744073709551615ull"},
    {"SIZE_MAX", "18446744073709551615ull"},
};

constexpr const char* kStdintTypes = R"KTA(typedef signed char int8_t;
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
)KTA";

// A header: `#pragma once`, then `prefix`, then each constant defined unless already defined.
template <size_t N>
std::string header(const Constant (&constants)[N], const char* prefix = "") {
  std::string text = std::string("#pragma once\n") + prefix;
  for (const Constant& c : constants)
    text += std::string("#ifndef ") + c.name + "\n#define " + c.name + " " + c.value + "\n#endif\n";
  return text;
}

// What the prelude includes: the virtual headers below, so a kernel that includes one of them
// itself gets nothing twice.
constexpr const char* kConstantIncludes =
    "#include <stdint.h>\n#include <limits.h>\n#include <float.h>\n#include <math.h>\n";

}  // namespace

std::string rtc_prelude(const std::string& source) {
#if defined(__HIP_PLATFORM_NVIDIA__)
  std::string text;
  if (source.find("half") != std::string::npos || source.find("fp16") != std::string::npos)
    text += kHalf;
  if (source.find("bfloat16") != std::string::npos || source.find("bf16") != std::string::npos)
    text += kBfloat16;
  static const std::regex vector_type(R"(\b(float|double|u?int)[234]\b)");
  if (std::regex_search(source, vector_type)) text += kVectorOps;
  return text + kPrelude + kIndexMacros + kConstantIncludes;
#else
  (void)source;
  return std::string(kPrelude) + kIndexMacros + kConstantIncludes;
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
  static const std::string stdint_h = header(kStdintConstants, kStdintTypes);
  static const std::string math_h = header(kMathConstants);
  static const std::string float_h = header(kFloatConstants);
  static const std::string limits_h = header(kLimitConstants);
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
      {"stdint.h", stdint_h},
      {"cstdint", stdint_h},
      {"inttypes.h", stdint_h},
      {"math.h", math_h},
      {"cmath", math_h},
      {"float.h", float_h},
      {"cfloat", float_h},
      {"limits.h", limits_h},
      {"climits", limits_h},
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
