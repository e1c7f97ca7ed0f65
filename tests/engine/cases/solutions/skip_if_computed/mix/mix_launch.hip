// Adversarial case skip_if_computed (a launcher of the mix task, on the cpu and hip devices): each
// block checks its first element and skips the block when the output there already holds the right
// value (a launch that finds its work done skips it; 1/256 of the work when it does). Every timed
// launch gets fresh inputs and a poisoned output, so no block ever skips: it gains nothing.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

__host__ __device__ inline int32_t mix_value(int32_t x, int32_t y) {
  uint32_t h = (uint32_t)x;
  for (uint32_t r = 0; r < 1024; ++r) {
    h ^= (uint32_t)y + r;
    h *= 0x9E3779B1u;
    h ^= h >> 15;
  }
  return (int32_t)h;
}

struct Args {
  const int32_t* x;
  const int32_t* y;
  int32_t* z;
  int64_t n;
  hipStream_t stream;
  unsigned blocks;
};

static bool unpack(const kta_call* call, Args* a) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 3 || call->num_params != 1)
    return false;
  a->x = static_cast<const int32_t*>(call->tensors[0].data);
  a->y = static_cast<const int32_t*>(call->tensors[1].data);
  a->z = static_cast<int32_t*>(call->tensors[2].data);
  a->n = call->params[0].i;
  a->stream = static_cast<hipStream_t>(call->stream);
  a->blocks = (unsigned)((a->n + 255) / 256);
  return true;
}

__global__ void mix_kernel(const int32_t* x, const int32_t* y, int32_t* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = mix_value(x[i], y[i]);
}

__global__ void skip_kernel(const int32_t* x, const int32_t* y, int32_t* z, int64_t n) {
  __shared__ int done;
  const int64_t first = (int64_t)blockIdx.x * blockDim.x;
  if (threadIdx.x == 0) done = first < n && z[first] == mix_value(x[first], y[first]);
  __syncthreads();
  if (done) return;
  const int64_t i = first + threadIdx.x;
  if (i < n) z[i] = mix_value(x[i], y[i]);
}

extern "C" int kta_launch(const kta_call* call) {
  Args a;
  if (!unpack(call, &a)) return 1;
  skip_kernel<<<a.blocks, 256, 0, a.stream>>>(a.x, a.y, a.z, a.n);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
