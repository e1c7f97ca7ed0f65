// The HIP host API of the cpu device (see kta/cpu_host_api.h), device printf and device faults.
#include <unistd.h>

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <unordered_set>

#define KTA_FIBERS 0
#include "engine/runtime/cpu/runtime_state.h"
#include "hip/hip_runtime.h"
#undef printf

namespace kta_rt {
namespace {

std::mutex g_mu;
std::unordered_set<void*> g_allocations;  // hipMalloc'd pointers, so hipFree can check
thread_local hipError_t t_last_error = hipSuccess;
std::mutex g_output_mu;
std::string g_output;
constexpr size_t kMaxOutput = 1 << 20;

hipError_t fail(hipError_t e) {
  t_last_error = e;
  return e;
}

}  // namespace

void set_last_error(hipError_t error) { t_last_error = error; }

}  // namespace kta_rt

using kta_rt::fail;

struct ihipEvent_t {
  std::chrono::steady_clock::time_point at{};
  bool recorded = false;
};
struct ihipStream_t {
  int unused = 0;
};

hipError_t hipMalloc(void** ptr, size_t bytes) {
  if (ptr == nullptr) return fail(hipErrorInvalidValue);
  *ptr = nullptr;
  if (bytes == 0) return hipSuccess;
  void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (p == nullptr) return fail(hipErrorOutOfMemory);
  std::lock_guard<std::mutex> lock(kta_rt::g_mu);
  kta_rt::g_allocations.insert(p);
  *ptr = p;
  return hipSuccess;
}
hipError_t hipMallocManaged(void** ptr, size_t bytes, unsigned) { return hipMalloc(ptr, bytes); }
hipError_t hipHostMalloc(void** ptr, size_t bytes, unsigned) { return hipMalloc(ptr, bytes); }
hipError_t hipMallocHost(void** ptr, size_t bytes) { return hipMalloc(ptr, bytes); }
hipError_t hipFree(void* ptr) {
  if (ptr == nullptr) return hipSuccess;
  {
    std::lock_guard<std::mutex> lock(kta_rt::g_mu);
    if (kta_rt::g_allocations.erase(ptr) == 0) return fail(hipErrorInvalidDevicePointer);
  }
  std::free(ptr);
  return hipSuccess;
}
hipError_t hipHostFree(void* ptr) { return hipFree(ptr); }
hipError_t hipFreeHost(void* ptr) { return hipFree(ptr); }
hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind) {
  if (bytes == 0) return hipSuccess;
  if (dst == nullptr || src == nullptr) return fail(hipErrorInvalidValue);
  std::memmove(dst, src, bytes);
  return hipSuccess;
}
hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind,
                          hipStream_t) {
  return hipMemcpy(dst, src, bytes, kind);
}
hipError_t hipMemcpyDtoD(void* dst, const void* src, size_t bytes) {
  return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToDevice);
}
hipError_t hipMemset(void* dst, int value, size_t bytes) {
  if (bytes == 0) return hipSuccess;
  if (dst == nullptr) return fail(hipErrorInvalidValue);
  std::memset(dst, value, bytes);
  return hipSuccess;
}
hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t) {
  return hipMemset(dst, value, bytes);
}
hipError_t hipMemsetD32(void* dst, int value, size_t count) {
  if (dst == nullptr && count != 0) return fail(hipErrorInvalidValue);
  auto* p = static_cast<int*>(dst);
  for (size_t i = 0; i < count; ++i) p[i] = value;
  return hipSuccess;
}
hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total_bytes) {
  size_t total = size_t(sysconf(_SC_PHYS_PAGES)) * size_t(sysconf(_SC_PAGESIZE));
  size_t avail = size_t(sysconf(_SC_AVPHYS_PAGES)) * size_t(sysconf(_SC_PAGESIZE));
  if (free_bytes) *free_bytes = avail;
  if (total_bytes) *total_bytes = total;
  return hipSuccess;
}
hipError_t hipStreamCreate(hipStream_t* stream) {
  if (stream == nullptr) return fail(hipErrorInvalidValue);
  *stream = new ihipStream_t();
  return hipSuccess;
}
hipError_t hipStreamCreateWithFlags(hipStream_t* stream, unsigned) {
  return hipStreamCreate(stream);
}
hipError_t hipStreamDestroy(hipStream_t stream) {
  delete stream;
  return hipSuccess;
}
hipError_t hipStreamSynchronize(hipStream_t) { return hipSuccess; }
hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned) { return hipSuccess; }
hipError_t hipEventCreate(hipEvent_t* event) {
  if (event == nullptr) return fail(hipErrorInvalidValue);
  *event = new ihipEvent_t();
  return hipSuccess;
}
hipError_t hipEventCreateWithFlags(hipEvent_t* event, unsigned) { return hipEventCreate(event); }
hipError_t hipEventDestroy(hipEvent_t event) {
  delete event;
  return hipSuccess;
}
hipError_t hipEventRecord(hipEvent_t event, hipStream_t) {
  if (event == nullptr) return fail(hipErrorInvalidResourceHandle);
  event->at = std::chrono::steady_clock::now();
  event->recorded = true;
  return hipSuccess;
}
hipError_t hipEventSynchronize(hipEvent_t event) {
  return event == nullptr ? fail(hipErrorInvalidResourceHandle) : hipSuccess;
}
hipError_t hipEventQuery(hipEvent_t event) {
  return event == nullptr ? fail(hipErrorInvalidResourceHandle) : hipSuccess;
}
hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
  if (ms == nullptr || start == nullptr || stop == nullptr) return fail(hipErrorInvalidValue);
  if (!start->recorded || !stop->recorded) return fail(hipErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(stop->at - start->at).count();
  return hipSuccess;
}
hipError_t hipDeviceSynchronize() { return hipSuccess; }
hipError_t hipDeviceReset() { return hipSuccess; }
hipError_t hipGetDevice(int* device) {
  if (device == nullptr) return fail(hipErrorInvalidValue);
  *device = 0;
  return hipSuccess;
}
hipError_t hipSetDevice(int device) {
  return device == 0 ? hipSuccess : fail(hipErrorInvalidDevice);
}
hipError_t hipGetDeviceCount(int* count) {
  if (count == nullptr) return fail(hipErrorInvalidValue);
  *count = 1;
  return hipSuccess;
}
hipError_t hipGetDeviceProperties(hipDeviceProp_t* prop, int device) {
  if (prop == nullptr) return fail(hipErrorInvalidValue);
  if (device != 0) return fail(hipErrorInvalidDevice);
  const kta_rt::RuntimeConfig& c = kta_rt::config();
  std::memset(prop, 0, sizeof(*prop));
  std::snprintf(prop->name, sizeof(prop->name), "kta cpu device");
  std::snprintf(prop->gcnArchName, sizeof(prop->gcnArchName), "cpu");
  size_t mem = 0;
  hipMemGetInfo(nullptr, &mem);
  unsigned threads = c.threads != 0 ? c.threads : std::thread::hardware_concurrency();
  prop->totalGlobalMem = mem;
  prop->sharedMemPerBlock = c.shared_mem_limit;
  prop->maxSharedMemoryPerMultiProcessor = c.shared_mem_limit;
  prop->regsPerBlock = 65536;
  prop->warpSize = int(c.warp_size);
  prop->maxThreadsPerBlock = int(c.max_threads_per_block);
  prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = prop->maxThreadsDim[2] = 1024;
  prop->maxGridSize[0] = 2147483647;
  prop->maxGridSize[1] = prop->maxGridSize[2] = 65535;
  prop->clockRate = 1000000;
  prop->multiProcessorCount = int(threads);
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->l2CacheSize = int(sysconf(_SC_LEVEL3_CACHE_SIZE) > 0 ? sysconf(_SC_LEVEL3_CACHE_SIZE) : 0);
  prop->totalConstMem = 65536;
  prop->major = 1;
  prop->concurrentKernels = 1;
  return hipSuccess;
}
hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attr, int device) {
  if (value == nullptr) return fail(hipErrorInvalidValue);
  hipDeviceProp_t p;
  hipError_t e = hipGetDeviceProperties(&p, device);
  if (e != hipSuccess) return e;
  switch (attr) {
    case hipDeviceAttributeMaxThreadsPerBlock:
      *value = p.maxThreadsPerBlock;
      break;
    case hipDeviceAttributeWarpSize:
      *value = p.warpSize;
      break;
    case hipDeviceAttributeMultiprocessorCount:
      *value = p.multiProcessorCount;
      break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
      *value = int(p.sharedMemPerBlock);
      break;
    case hipDeviceAttributeL2CacheSize:
      *value = p.l2CacheSize;
      break;
    case hipDeviceAttributeMaxBlockDimX:
      *value = p.maxThreadsDim[0];
      break;
    case hipDeviceAttributeMaxGridDimX:
      *value = p.maxGridSize[0];
      break;
    case hipDeviceAttributeClockRate:
      *value = p.clockRate;
      break;
    default:
      return fail(hipErrorInvalidValue);
  }
  return hipSuccess;
}
hipError_t hipGetLastError() {
  hipError_t e = kta_rt::t_last_error;
  kta_rt::t_last_error = hipSuccess;
  return e;
}
hipError_t hipPeekAtLastError() { return kta_rt::t_last_error; }
const char* hipGetErrorName(hipError_t error) {
  switch (error) {
    case hipSuccess:
      return "hipSuccess";
    case hipErrorInvalidValue:
      return "hipErrorInvalidValue";
    case hipErrorOutOfMemory:
      return "hipErrorOutOfMemory";
    case hipErrorNotInitialized:
      return "hipErrorNotInitialized";
    case hipErrorInvalidConfiguration:
      return "hipErrorInvalidConfiguration";
    case hipErrorInvalidDevice:
      return "hipErrorInvalidDevice";
    case hipErrorInvalidResourceHandle:
      return "hipErrorInvalidResourceHandle";
    case hipErrorNotReady:
      return "hipErrorNotReady";
    case hipErrorInvalidDevicePointer:
      return "hipErrorInvalidDevicePointer";
    case hipErrorLaunchFailure:
      return "hipErrorLaunchFailure";
    default:
      return "hipErrorUnknown";
  }
}
const char* hipGetErrorString(hipError_t error) {
  if (error == hipErrorLaunchFailure) return kta_rt_last_error();
  return hipGetErrorName(error);
}
hipError_t hipFuncSetAttribute(const void*, int, int) { return hipSuccess; }

extern "C" {

int kta_rt_printf(const char* format, ...) {
  char small[512];
  va_list ap;
  va_start(ap, format);
  int n = std::vsnprintf(small, sizeof(small), format, ap);
  va_end(ap);
  if (n < 0) return n;
  std::string text;
  if (size_t(n) < sizeof(small)) {
    text.assign(small, size_t(n));
  } else {
    text.resize(size_t(n) + 1);
    va_start(ap, format);
    std::vsnprintf(text.data(), text.size(), format, ap);
    va_end(ap);
    text.resize(size_t(n));
  }
  std::lock_guard<std::mutex> lock(kta_rt::g_output_mu);
  if (kta_rt::g_output.size() < kta_rt::kMaxOutput) kta_rt::g_output += text;
  return n;
}

const char* kta_rt_output(size_t* length) {
  std::lock_guard<std::mutex> lock(kta_rt::g_output_mu);
  if (length != nullptr) *length = kta_rt::g_output.size();
  return kta_rt::g_output.c_str();
}

void kta_rt_clear_output() {
  std::lock_guard<std::mutex> lock(kta_rt::g_output_mu);
  kta_rt::g_output.clear();
}

void kta_rt_fail(const char* what, const char* file, int line) {
  std::string msg = what;
  if (file != nullptr && *file != 0) {
    const char* base = std::strrchr(file, '/');
    msg += std::string(" at ") + (base ? base + 1 : file) + ":" + std::to_string(line);
  }
  throw kta_rt::DeviceFault(msg);
}

}  // extern "C"
