#include <hip/hip_runtime.h>
#include <kta/launch.h>

#include "parts/scan_passes.hip"

// An inclusive scan of x into y (tensors x, y of f32 or i32; param N) in launcher mode: block
// scans through hipLaunchKernelGGL, the block totals scanned recursively into hipMalloc'd
// workspace, and the offsets added by the included file's <<<>>> launch.
constexpr int kBlock = 256;

template <class T>
hipError_t scan(const T* in, T* out, long n, hipStream_t stream) {
  const int blocks = (int)((n + kBlock - 1) / kBlock);
  if (blocks == 1) {
    hipLaunchKernelGGL((block_scan<T, kBlock>), dim3(1), dim3(kBlock), 0, stream, in, out,
                       (T*)nullptr, n);
    return hipGetLastError();
  }
  T* totals = nullptr;
  T* scanned = nullptr;
  if (hipMalloc(&totals, blocks * sizeof(T)) != hipSuccess) return hipErrorOutOfMemory;
  if (hipMalloc(&scanned, blocks * sizeof(T)) != hipSuccess) return hipErrorOutOfMemory;
  block_scan<T, kBlock><<<blocks, kBlock, 0, stream>>>(in, out, totals, n);
  hipError_t err = scan<T>(totals, scanned, blocks, stream);
  if (err == hipSuccess) err = launch_add_offsets(out, scanned, n, kBlock, blocks, stream);
  hipFree(totals);
  hipFree(scanned);
  return err;
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 2) return 1;
  const kta_tensor& x = call->tensors[0];
  long n = call->params[0].i;
  hipStream_t stream = (hipStream_t)call->stream;
  hipError_t err = hipErrorInvalidValue;
  if (x.dtype == KTA_F32)
    err = scan((const float*)x.data, (float*)call->tensors[1].data, n, stream);
  else if (x.dtype == KTA_I32)
    err = scan((const int*)x.data, (int*)call->tensors[1].data, n, stream);
  return err == hipSuccess ? 0 : 2;
}
