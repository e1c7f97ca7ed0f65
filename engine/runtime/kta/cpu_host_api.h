// The HIP host API on the cpu device: memory, copies, streams, events, device properties and
// errors. Everything is synchronous (a launch returns when its grid finished), so streams only
// order what already is ordered and events read a steady clock. Implemented in the runtime
// library (engine/runtime/cpu/host_api.cpp).
#pragma once

#include <cstddef>

#pragma GCC visibility push(default)

enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorMemoryAllocation = 2,
  hipErrorNotInitialized = 3,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidResourceHandle = 400,
  hipErrorNotReady = 600,
  hipErrorInvalidDevicePointer = 17,
  hipErrorLaunchFailure = 719,
  hipErrorUnknown = 999,
};
typedef hipError_t cudaError_t;

enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
};

typedef struct ihipStream_t* hipStream_t;
typedef struct ihipEvent_t* hipEvent_t;

enum hipDeviceAttribute_t {
  hipDeviceAttributeMaxThreadsPerBlock = 0,
  hipDeviceAttributeWarpSize,
  hipDeviceAttributeMultiprocessorCount,
  hipDeviceAttributeMaxSharedMemoryPerBlock,
  hipDeviceAttributeL2CacheSize,
  hipDeviceAttributeMaxBlockDimX,
  hipDeviceAttributeMaxGridDimX,
  hipDeviceAttributeClockRate,
};

struct hipDeviceProp_t {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  int memoryClockRate;
  int memoryBusWidth;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  int computeMode;
  int concurrentKernels;
  size_t maxSharedMemoryPerMultiProcessor;
  int isMultiGpuBoard;
  int canMapHostMemory;
  char gcnArchName[256];
};

#define hipStreamDefault 0
#define hipStreamNonBlocking 1
#define hipEventDefault 0
#define hipEventDisableTiming 2
#define hipHostMallocDefault 0

// The C API has C linkage, as HIP's own headers declare it: code that defines one of these
// functions itself (a timer of its own, say) compiles here as it does against HIP, and fools
// nothing (the cpu device times launches in the worker, never through events).
extern "C" {
hipError_t hipMalloc(void** ptr, size_t bytes);
hipError_t hipMallocManaged(void** ptr, size_t bytes, unsigned flags = 1);
hipError_t hipHostMalloc(void** ptr, size_t bytes, unsigned flags = 0);
hipError_t hipMallocHost(void** ptr, size_t bytes);
hipError_t hipFree(void* ptr);
hipError_t hipHostFree(void* ptr);
hipError_t hipFreeHost(void* ptr);
hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind);
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind,
                          hipStream_t stream = nullptr);
hipError_t hipMemcpyDtoD(void* dst, const void* src, size_t bytes);
hipError_t hipMemset(void* dst, int value, size_t bytes);
hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t stream = nullptr);
hipError_t hipMemsetD32(void* dst, int value, size_t count);
hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes);
hipError_t hipStreamCreate(hipStream_t* stream);
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned flags);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned flags = 0);
hipError_t hipEventCreate(hipEvent_t* event);
hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned flags);
hipError_t hipEventDestroy(hipEvent_t event);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = nullptr);
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipDeviceSynchronize();
hipError_t hipDeviceReset();
hipError_t hipGetDevice(int* device);
hipError_t hipSetDevice(int device);
hipError_t hipGetDeviceCount(int* count);
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device);
hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attr, int device);
hipError_t hipGetLastError();
hipError_t hipPeekAtLastError();
const char* hipGetErrorString(hipError_t error);
const char* hipGetErrorName(hipError_t error);
hipError_t hipFuncSetAttribute(const void* func, int attr, int value);
}  // extern "C"

template <class T>
inline hipError_t hipMalloc(T** ptr, size_t bytes) {
  return hipMalloc(reinterpret_cast<void**>(ptr), bytes);
}
template <class T>
inline hipError_t hipMallocManaged(T** ptr, size_t bytes, unsigned flags = 1) {
  return hipMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <class T>
inline hipError_t hipHostMalloc(T** ptr, size_t bytes, unsigned flags = 0) {
  return hipHostMalloc(reinterpret_cast<void**>(ptr), bytes, flags);
}
template <class T>
inline hipError_t hipMemcpyToSymbol(T& symbol, const void* src, size_t bytes, size_t offset = 0,
                                    hipMemcpyKind = hipMemcpyHostToDevice) {
  std::memcpy(reinterpret_cast<char*>(&symbol) + offset, src, bytes);
  return hipSuccess;
}
template <class T>
inline hipError_t hipMemcpyFromSymbol(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                      hipMemcpyKind = hipMemcpyDeviceToHost) {
  std::memcpy(dst, reinterpret_cast<const char*>(&symbol) + offset, bytes);
  return hipSuccess;
}
template <class F>
inline hipError_t hipFuncSetAttribute(F*, int, int) {
  return hipSuccess;
}
#define hipFuncAttributeMaxDynamicSharedMemorySize 8

namespace kta_rt {
// Sets the error hipGetLastError() reports next (launch failures).
void set_last_error(hipError_t error);
}  // namespace kta_rt

#pragma GCC visibility pop
