// Adversarial case host_compute (a launcher of the mix task; the cpu device's off_cpu): does the
// work on the host's cores instead of the GPU, hoping the GPU's event timer misses it. The events
// bracket the whole call, host work included: it is correct and gains nothing.
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

#include <algorithm>
#include <thread>
#include <vector>

extern "C" int kta_launch(const kta_call* call) {
  Args a;
  if (!unpack(call, &a)) return 1;
  std::vector<int32_t> x(a.n), y(a.n), z(a.n);
  if (hipMemcpy(x.data(), a.x, a.n * 4, hipMemcpyDeviceToHost) != hipSuccess ||
      hipMemcpy(y.data(), a.y, a.n * 4, hipMemcpyDeviceToHost) != hipSuccess)
    return 2;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int64_t i = t; i < a.n; i += threads) z[i] = mix_value(x[i], y[i]);
    });
  for (auto& th : pool) th.join();
  return hipMemcpy(a.z, z.data(), a.n * 4, hipMemcpyHostToDevice) == hipSuccess ? 0 : 2;
}
