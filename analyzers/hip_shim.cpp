#include "analyzers/hip_shim.h"

namespace kta::analyzers {
namespace {

// Declarations only: the analyzer parses (-fsyntax-only), it never generates code.
constexpr std::string_view kShim = R"shim(#ifndef KTA_HIP_SHIM_H
#define KTA_HIP_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
// printf, memcpy and assert are callable from device code in HIP.
#pragma clang force_cuda_host_device begin
#include <stdio.h>
#include <string.h>
#include <assert.h>
#pragma clang force_cuda_host_device end
#define __HIP__ 1
#define __HIPCC__ 1
#define __HIP_PLATFORM_AMD__ 1
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
// Device overloads of the C math library (as clang's own HIP headers declare them).
#define KTA_MATH1(F) static __device__ inline float F##f(float x) { return __builtin_##F##f(x); } \
  static __device__ inline double F(double x) { return __builtin_##F(x); }
#define KTA_MATH2(F) static __device__ inline float F##f(float x, float y) { return __builtin_##F##f(x, y); } \
  static __device__ inline double F(double x, double y) { return __builtin_##F(x, y); }
KTA_MATH1(sqrt) KTA_MATH1(cbrt) KTA_MATH1(exp) KTA_MATH1(exp2) KTA_MATH1(expm1) KTA_MATH1(log)
KTA_MATH1(log2) KTA_MATH1(log10) KTA_MATH1(log1p) KTA_MATH1(sin) KTA_MATH1(cos) KTA_MATH1(tan)
KTA_MATH1(asin) KTA_MATH1(acos) KTA_MATH1(atan) KTA_MATH1(sinh) KTA_MATH1(cosh) KTA_MATH1(tanh)
KTA_MATH1(erf) KTA_MATH1(erfc) KTA_MATH1(fabs) KTA_MATH1(floor) KTA_MATH1(ceil) KTA_MATH1(round)
KTA_MATH1(trunc) KTA_MATH1(rint) KTA_MATH1(lgamma) KTA_MATH1(tgamma)
KTA_MATH2(pow) KTA_MATH2(atan2) KTA_MATH2(fmin) KTA_MATH2(fmax) KTA_MATH2(fmod) KTA_MATH2(hypot)
KTA_MATH2(copysign) KTA_MATH2(fdim) KTA_MATH2(remainder)
#undef KTA_MATH1
#undef KTA_MATH2
static __device__ inline float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
static __device__ inline double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
static __device__ inline void sincosf(float x, float* s, float* c) { *s = __builtin_sinf(x); *c = __builtin_cosf(x); }
static __device__ inline int abs(int x) { return __builtin_abs(x); }
static __device__ inline long labs(long x) { return __builtin_labs(x); }
static __device__ inline long long llabs(long long x) { return __builtin_llabs(x); }
static __device__ inline float __expf(float x) { return __builtin_expf(x); }
static __device__ inline float __exp10f(float x) { return __builtin_powf(10.0f, x); }
static __device__ inline float __logf(float x) { return __builtin_logf(x); }
static __device__ inline float __log2f(float x) { return __builtin_log2f(x); }
static __device__ inline float __log10f(float x) { return __builtin_log10f(x); }
static __device__ inline float __sinf(float x) { return __builtin_sinf(x); }
static __device__ inline float __cosf(float x) { return __builtin_cosf(x); }
static __device__ inline float __tanf(float x) { return __builtin_tanf(x); }
static __device__ inline float __powf(float x, float y) { return __builtin_powf(x, y); }
static __device__ inline void __sincosf(float x, float* s, float* c) { *s = __builtin_sinf(x); *c = __builtin_cosf(x); }
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct __kta_index3 { unsigned x, y, z; };
extern const __device__ __kta_index3 threadIdx, blockIdx, blockDim, gridDim;
extern const __device__ int warpSize;
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
#define KTA_VEC(T, N) \
  struct N##1 { T x; }; struct N##2 { T x, y; }; struct N##3 { T x, y, z; }; \
  struct __attribute__((aligned(sizeof(T) * 4))) N##4 { T x, y, z, w; }; \
  __host__ __device__ N##1 make_##N##1(T); __host__ __device__ N##2 make_##N##2(T, T); \
  __host__ __device__ N##3 make_##N##3(T, T, T); __host__ __device__ N##4 make_##N##4(T, T, T, T);
KTA_VEC(float, float) KTA_VEC(double, double) KTA_VEC(int, int) KTA_VEC(unsigned, uint)
KTA_VEC(signed char, char) KTA_VEC(unsigned char, uchar) KTA_VEC(short, short)
KTA_VEC(unsigned short, ushort) KTA_VEC(long, long) KTA_VEC(unsigned long, ulong)
KTA_VEC(long long, longlong) KTA_VEC(unsigned long long, ulonglong)
#undef KTA_VEC
typedef _Float16 __half;
typedef _Float16 half;
struct __half2 { __half x, y; };
typedef __half2 half2;
struct __hip_bfloat16 {
  unsigned short data;
  __hip_bfloat16() = default;
  __host__ __device__ __hip_bfloat16(float);
  __host__ __device__ operator float() const;
};
typedef __hip_bfloat16 hip_bfloat16;
__host__ __device__ __half __float2half(float);
__host__ __device__ float __half2float(__half);
__host__ __device__ __half2 __floats2half2_rn(float, float);
__host__ __device__ float2 __half22float2(__half2);
__host__ __device__ float __bfloat162float(__hip_bfloat16);
__host__ __device__ __hip_bfloat16 __float2bfloat16(float);
// The rest of hip_fp16.h / hip_bf16.h that kernels use: conversions, bit casts, the halves of a
// pair and the half arithmetic (an unknown one made a sound solution a parse error).
struct __hip_bfloat162 { __hip_bfloat16 x, y; };
typedef __hip_bfloat162 hip_bfloat162;
__host__ __device__ __half __float2half_rn(float);
__host__ __device__ __half __float2half_rz(float);
__host__ __device__ __half2 __float2half2_rn(float);
__host__ __device__ __half2 __float22half2_rn(float2);
__host__ __device__ __half2 __halves2half2(__half, __half);
__host__ __device__ __half2 __half2half2(__half);
__host__ __device__ __half2 make_half2(__half, __half);
__host__ __device__ __half __low2half(__half2);
__host__ __device__ __half __high2half(__half2);
__host__ __device__ float __low2float(__half2);
__host__ __device__ float __high2float(__half2);
__host__ __device__ __half2 __lows2half2(__half2, __half2);
__host__ __device__ __half2 __highs2half2(__half2, __half2);
__host__ __device__ __half __ushort_as_half(unsigned short);
__host__ __device__ unsigned short __half_as_ushort(__half);
__host__ __device__ __half __short_as_half(short);
__host__ __device__ short __half_as_short(__half);
__host__ __device__ int __half2int_rn(__half);
__host__ __device__ int __half2int_rz(__half);
__host__ __device__ __half __int2half_rn(int);
__device__ __half __hadd(__half, __half);
__device__ __half __hsub(__half, __half);
__device__ __half __hmul(__half, __half);
__device__ __half __hdiv(__half, __half);
__device__ __half __hfma(__half, __half, __half);
__device__ __half __hneg(__half);
__device__ __half __habs(__half);
__device__ __half __hmax(__half, __half);
__device__ __half __hmin(__half, __half);
__device__ bool __hlt(__half, __half);
__device__ bool __hgt(__half, __half);
__device__ bool __hisnan(__half);
__device__ __half2 __hadd2(__half2, __half2);
__device__ __half2 __hsub2(__half2, __half2);
__device__ __half2 __hmul2(__half2, __half2);
__device__ __half2 __hfma2(__half2, __half2, __half2);
__device__ __half2 __hmax2(__half2, __half2);
__device__ __half2 __hmin2(__half2, __half2);
__device__ __half hexp(__half);
__device__ __half hsqrt(__half);
__device__ __half hrsqrt(__half);
__host__ __device__ __hip_bfloat16 __float2bfloat16_rn(float);
__host__ __device__ unsigned short __bfloat16_as_ushort(__hip_bfloat16);
__host__ __device__ __hip_bfloat16 __ushort_as_bfloat16(unsigned short);
__host__ __device__ __hip_bfloat162 __floats2bfloat162_rn(float, float);
__host__ __device__ __hip_bfloat162 __float22bfloat162_rn(float2);
__host__ __device__ float2 __bfloat1622float2(__hip_bfloat162);
__host__ __device__ __hip_bfloat16 __low2bfloat16(__hip_bfloat162);
__host__ __device__ __hip_bfloat16 __high2bfloat16(__hip_bfloat162);
__host__ __device__ __hip_bfloat162 __halves2bfloat162(__hip_bfloat16, __hip_bfloat16);
__device__ void __syncthreads();
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned long long mask = ~0ull);
__device__ void __threadfence();
__device__ void __threadfence_block();
template <class T> __device__ T __shfl(T, int, int width = 64);
template <class T> __device__ T __shfl_up(T, unsigned, int width = 64);
template <class T> __device__ T __shfl_down(T, unsigned, int width = 64);
template <class T> __device__ T __shfl_xor(T, int, int width = 64);
template <class T> __device__ T __shfl_sync(unsigned long long, T, int, int width = 64);
template <class T> __device__ T __shfl_up_sync(unsigned long long, T, unsigned, int width = 64);
template <class T> __device__ T __shfl_down_sync(unsigned long long, T, unsigned, int width = 64);
template <class T> __device__ T __shfl_xor_sync(unsigned long long, T, int, int width = 64);
__device__ unsigned long long __ballot(int);
__device__ unsigned long long __ballot_sync(unsigned long long, int);
__device__ int __any(int);
__device__ int __all(int);
__device__ int __any_sync(unsigned long long, int);
__device__ int __all_sync(unsigned long long, int);
__device__ unsigned long long __activemask();
__device__ unsigned __lane_id();
__host__ __device__ int __popc(unsigned);
__host__ __device__ int __popcll(unsigned long long);
__host__ __device__ int __clz(int);
__host__ __device__ int __clzll(long long);
__host__ __device__ int __ffs(int);
__host__ __device__ int __ffsll(long long);
template <class T> __device__ T __ldg(const T*);
template <class T> __device__ T atomicAdd(T*, T);
template <class T> __device__ T atomicSub(T*, T);
template <class T> __device__ T atomicMax(T*, T);
template <class T> __device__ T atomicMin(T*, T);
template <class T> __device__ T atomicExch(T*, T);
template <class T> __device__ T atomicCAS(T*, T, T);
template <class T> __device__ T atomicAnd(T*, T);
template <class T> __device__ T atomicOr(T*, T);
template <class T> __device__ T atomicXor(T*, T);
template <class T> __device__ T atomicInc(T*, T);
template <class T> __device__ T atomicDec(T*, T);
template <class T> __device__ T atomicAdd_block(T*, T);
template <class T> __device__ T atomicAdd_system(T*, T);
template <class T> __device__ T atomicCAS_block(T*, T, T);
template <class T> __device__ T atomicCAS_system(T*, T, T);
template <class T> __device__ T unsafeAtomicAdd(T*, T);
__host__ __device__ int __float_as_int(float);
__host__ __device__ unsigned __float_as_uint(float);
__host__ __device__ float __int_as_float(int);
__host__ __device__ float __uint_as_float(unsigned);
__host__ __device__ long long __double_as_longlong(double);
__host__ __device__ double __longlong_as_double(long long);
__device__ float __fadd_rn(float, float);
__device__ float __fsub_rn(float, float);
__device__ float __fmul_rn(float, float);
__device__ float __fdiv_rn(float, float);
__device__ float __frcp_rn(float);
__device__ double __fma_rn(double, double, double);
__device__ double __dadd_rn(double, double);
__device__ double __dmul_rn(double, double);
__device__ float __double2float_rn(double);
__device__ int __float2int_rd(float);
__device__ int __float2int_rn(float);
__device__ int __float2int_ru(float);
__device__ int __float2int_rz(float);
__device__ float __int2float_rn(int);
__device__ float __uint2float_rn(unsigned);
__device__ float __fdividef(float, float);
__device__ float __frsqrt_rn(float);
__device__ float __fsqrt_rn(float);
__device__ float __fmaf_rn(float, float, float);
__device__ float __saturatef(float);
__host__ __device__ float rsqrtf(float);
__host__ __device__ double rsqrt(double);
__host__ __device__ int min(int, int);
__host__ __device__ unsigned min(unsigned, unsigned);
__host__ __device__ long long min(long long, long long);
__host__ __device__ unsigned long long min(unsigned long long, unsigned long long);
__host__ __device__ float min(float, float);
__host__ __device__ double min(double, double);
__host__ __device__ int max(int, int);
__host__ __device__ unsigned max(unsigned, unsigned);
__host__ __device__ long long max(long long, long long);
__host__ __device__ unsigned long long max(unsigned long long, unsigned long long);
__host__ __device__ float max(float, float);
__host__ __device__ double max(double, double);
__device__ long long clock64();
__device__ long long wall_clock64();
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(x) (&(x))
typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t* hipEvent_t;
typedef enum hipError_t { hipSuccess = 0, hipErrorInvalidValue = 1, hipErrorOutOfMemory = 2,
  hipErrorMemoryAllocation = 2, hipErrorNotInitialized = 3, hipErrorInvalidConfiguration = 9,
  hipErrorInvalidDevicePointer = 17, hipErrorInvalidDevice = 101, hipErrorInvalidResourceHandle = 400,
  hipErrorNotReady = 600, hipErrorLaunchFailure = 719, hipErrorUnknown = 999 } hipError_t;
#define hipStreamDefault 0x0
#define hipStreamNonBlocking 0x1
#define hipEventDefault 0x0
#define hipEventDisableTiming 0x2
#define hipHostMallocDefault 0x0
typedef enum hipMemcpyKind { hipMemcpyHostToHost = 0, hipMemcpyHostToDevice, hipMemcpyDeviceToHost,
  hipMemcpyDeviceToDevice, hipMemcpyDefault } hipMemcpyKind;
typedef enum hipDeviceAttribute_t { hipDeviceAttributeMaxThreadsPerBlock, hipDeviceAttributeWarpSize,
  hipDeviceAttributeMultiprocessorCount, hipDeviceAttributeMaxSharedMemoryPerBlock,
  hipDeviceAttributeComputeCapabilityMajor, hipDeviceAttributeComputeCapabilityMinor,
  hipDeviceAttributeL2CacheSize, hipDeviceAttributeMaxBlockDimX, hipDeviceAttributeMaxGridDimX,
  hipDeviceAttributeClockRate } hipDeviceAttribute_t;
typedef enum hipFuncAttribute { hipFuncAttributeMaxDynamicSharedMemorySize } hipFuncAttribute;
typedef struct hipDeviceProp_t { char name[256]; size_t totalGlobalMem; size_t sharedMemPerBlock;
  int warpSize; int maxThreadsPerBlock; int maxThreadsDim[3]; int maxGridSize[3];
  int multiProcessorCount; int major; int minor; int l2CacheSize; int clockRate;
  int maxSharedMemoryPerMultiProcessor; char gcnArchName[256]; } hipDeviceProp_t;
// HIP's C API has C linkage (hip_runtime_api.h declares it in extern "C"), so a launcher that
// defines one of its functions (an attempt at timer interposition) parses as with hipcc.
extern "C" hipError_t hipMalloc(void**, size_t);
template <class T> hipError_t hipMalloc(T** p, size_t n) { return hipMalloc((void**)p, n); }
extern "C" hipError_t hipMallocAsync(void**, size_t, hipStream_t);
template <class T> hipError_t hipMallocAsync(T** p, size_t n, hipStream_t s) { return hipMallocAsync((void**)p, n, s); }
extern "C" hipError_t hipFree(void*);
extern "C" hipError_t hipMallocManaged(void**, size_t, unsigned flags = 1);
template <class T> hipError_t hipMallocManaged(T** p, size_t n, unsigned flags = 1) { return hipMallocManaged((void**)p, n, flags); }
extern "C" hipError_t hipHostMalloc(void**, size_t, unsigned flags = 0);
template <class T> hipError_t hipHostMalloc(T** p, size_t n, unsigned flags = 0) { return hipHostMalloc((void**)p, n, flags); }
extern "C" hipError_t hipMallocHost(void**, size_t);
extern "C" hipError_t hipHostFree(void*);
extern "C" hipError_t hipFreeHost(void*);
extern "C" hipError_t hipMemcpyDtoD(void*, const void*, size_t);
extern "C" hipError_t hipMemsetD32(void*, int, size_t);
extern "C" hipError_t hipMemGetInfo(size_t*, size_t*);
template <class T> hipError_t hipMemcpyFromSymbol(void*, const T&, size_t, size_t offset = 0, hipMemcpyKind kind = hipMemcpyDeviceToHost);
extern "C" hipError_t hipStreamCreateWithFlags(hipStream_t*, unsigned);
extern "C" hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned flags = 0);
extern "C" hipError_t hipEventCreateWithFlags(hipEvent_t*, unsigned);
extern "C" hipError_t hipEventQuery(hipEvent_t);
extern "C" hipError_t hipDeviceReset();
extern "C" hipError_t hipFreeAsync(void*, hipStream_t);
extern "C" hipError_t hipMemcpy(void*, const void*, size_t, hipMemcpyKind);
extern "C" hipError_t hipMemcpyAsync(void*, const void*, size_t, hipMemcpyKind, hipStream_t stream = 0);
extern "C" hipError_t hipMemset(void*, int, size_t);
extern "C" hipError_t hipMemsetAsync(void*, int, size_t, hipStream_t stream = 0);
extern "C" hipError_t hipMemcpyToSymbol(const void*, const void*, size_t, size_t offset = 0, hipMemcpyKind kind = hipMemcpyHostToDevice);
extern "C" hipError_t hipDeviceSynchronize();
extern "C" hipError_t hipStreamSynchronize(hipStream_t);
extern "C" hipError_t hipStreamCreate(hipStream_t*);
extern "C" hipError_t hipStreamDestroy(hipStream_t);
extern "C" hipError_t hipEventCreate(hipEvent_t*);
extern "C" hipError_t hipEventRecord(hipEvent_t, hipStream_t stream = 0);
extern "C" hipError_t hipEventSynchronize(hipEvent_t);
extern "C" hipError_t hipEventElapsedTime(float*, hipEvent_t, hipEvent_t);
extern "C" hipError_t hipEventDestroy(hipEvent_t);
extern "C" hipError_t hipGetLastError();
extern "C" hipError_t hipPeekAtLastError();
extern "C" const char* hipGetErrorString(hipError_t);
extern "C" const char* hipGetErrorName(hipError_t);
extern "C" hipError_t hipGetDevice(int*);
extern "C" hipError_t hipSetDevice(int);
extern "C" hipError_t hipGetDeviceCount(int*);
extern "C" hipError_t hipGetDeviceProperties(hipDeviceProp_t*, int);
extern "C" hipError_t hipDeviceGetAttribute(int*, hipDeviceAttribute_t, int);
extern "C" hipError_t hipFuncSetAttribute(const void*, hipFuncAttribute, int);
extern "C" hipError_t hipLaunchKernel(const void*, dim3, dim3, void**, size_t, hipStream_t);
template <class F> hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int*, F, int, size_t);
template <class F> hipError_t hipOccupancyMaxPotentialBlockSize(int*, int*, F, size_t dyn = 0, int limit = 0);
extern "C" int __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shmem = 0, hipStream_t stream = 0);
extern "C" int __hipPopCallConfiguration(dim3*, dim3*, size_t*, hipStream_t*);
#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...) \
  kernel<<<(grid), (block), (shmem), (stream)>>>(__VA_ARGS__)
#endif
)shim";

constexpr std::string_view kForward = "#include \"/kta-audit-shim/kta_hip_shim.h\"\n";

}  // namespace

const std::vector<std::pair<std::string_view, std::string_view>>& shim_files() {
  static const std::vector<std::pair<std::string_view, std::string_view>> files = {
      {kShimHeader, kShim},
      {"/kta-audit-shim/hip/hip_runtime.h", kForward},
      {"/kta-audit-shim/hip/hip_runtime_api.h", kForward},
      {"/kta-audit-shim/hip/hip_fp16.h", kForward},
      {"/kta-audit-shim/hip/hip_bf16.h", kForward},
      {"/kta-audit-shim/hip/hip_bfloat16.h", kForward},
      {"/kta-audit-shim/hip/hip_vector_types.h", kForward},
      {"/kta-audit-shim/hip/hip_cooperative_groups.h", kForward},
      {"/kta-audit-shim/hip/amd_detail/amd_warp_functions.h", kForward},
  };
  return files;
}

}  // namespace kta::analyzers
