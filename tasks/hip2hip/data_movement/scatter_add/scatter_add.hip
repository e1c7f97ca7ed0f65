// Baseline for the scatter_add task (launcher mode): clear out with hipMemsetAsync, then one
// thread per element adds src[i] to out[index[i]] with a global float atomicAdd. Correct for any
// N and any index in [0, K); every update of a hot bin contends for the same address.
// Tensors (declaration order): src f32[N], index i64[N], out f32[K]; params: N, K.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void scatter_add(const float* src, const int64_t* index, float* out, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&out[index[i]], src[i]);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 2)
    return 1;
  const float* src = (const float*)call->tensors[0].data;
  const int64_t* index = (const int64_t*)call->tensors[1].data;
  float* out = (float*)call->tensors[2].data;
  const int64_t n = call->params[0].i, k = call->params[1].i;
  hipStream_t stream = (hipStream_t)call->stream;
  if (hipMemsetAsync(out, 0, k * sizeof(float), stream) != hipSuccess) return 2;
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  scatter_add<<<(unsigned)blocks, kThreads, 0, stream>>>(src, index, out, n);
  return hipGetLastError() == hipSuccess ? 0 : 3;
}
