#include <hip/hip_runtime.h>
#include <kta/launch.h>

#include <cstring>

namespace ops {
template <typename T>
__global__ void fill(T* out, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}
}  // namespace ops

template <typename T, int K>
__global__ void add_scaled(const T* x, T* y, int n) {
  extern __shared__ T tmp[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tmp[threadIdx.x] = i < n ? x[i] : T(0);
  __syncthreads();
  if (i < n) y[i] += T(K) * tmp[threadIdx.x];
}

__global__ void plain(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * 2.0f; /* a comment with <<< and >>> inside */
}

// Tensors: x (in), y (out), param n. y = 2 * (1 + 3 x), launched with every chevron form:
// a namespaced template with deduced arguments, explicit template arguments with shared memory
// and a stream, a plain kernel over several lines.
extern "C" int kta_launch(const kta_call* call) {
  const float* x = (const float*)call->tensors[0].data;
  float* y = (float*)call->tensors[1].data;
  int n = (int)call->params[0].i;
  const char* s = "k<<<1,1>>>()";  // not a launch
  if (std::strlen(s) != 12) return 9;
  hipStream_t stream;
  hipStreamCreate(&stream);
  dim3 block(128), grid((n + 127) / 128);
  ops::fill<<<grid, block>>>(y, 1.0f, n);
  add_scaled<float, 3><<<grid, block, 128 * sizeof(float), stream>>>(x, y, n);
  plain<<<dim3((n + 63) / 64, 1, 1),
          dim3(64, 1, 1),
          0>>>(y,
               n);
  hipStreamSynchronize(stream);
  hipStreamDestroy(stream);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
