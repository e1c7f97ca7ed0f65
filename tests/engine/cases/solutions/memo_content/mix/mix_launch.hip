// Adversarial case memo_content (a launcher of the mix task, on the cpu and hip devices): memoizes
// outputs by a hash of 32 sampled input pairs, entirely on the device (no host round trip, so graph
// replays run it too): a one-thread kernel hashes the inputs and picks a slot of eight (a hit, or
// the next one to fill), the main kernel copies the slot's stored output on a hit, else computes
// and stores it. Timed launches never see the same inputs twice, so it never hits and gains
// nothing.
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

#define SLOTS 8
#define CAPACITY (int64_t(1) << 22)

__device__ unsigned long long slot_hash[SLOTS];
__device__ long long slot_n[SLOTS];
__device__ int next_slot;
__device__ int chosen;
__device__ int hit;

__global__ void memo_lookup(const int32_t* x, const int32_t* y, int64_t n) {
  unsigned long long h = 1469598103934665603ull ^ (unsigned long long)n;
  for (int k = 0; k < 32; ++k) {
    const int64_t i = (k * 7919LL) % n;
    h = (h ^ (uint32_t)x[i]) * 1099511628211ull;
    h = (h ^ (uint32_t)y[i]) * 1099511628211ull;
  }
  if (h == 0) h = 1;
  for (int s = 0; s < SLOTS; ++s) {
    if (slot_hash[s] == h && slot_n[s] == n) {
      chosen = s;
      hit = 1;
      return;
    }
  }
  hit = 0;
  chosen = next_slot;
  next_slot = (next_slot + 1) % SLOTS;
  slot_hash[chosen] = h;  // the main kernel fills the slot before any later launch reads it
  slot_n[chosen] = n;
}

__global__ void memo_mix(const int32_t* x, const int32_t* y, int32_t* z, int64_t n,
                         int32_t* store) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int32_t* slot = store + (int64_t)chosen * CAPACITY;
  if (hit) {
    z[i] = slot[i];
    return;
  }
  const int32_t v = mix_value(x[i], y[i]);
  z[i] = v;
  slot[i] = v;
}

extern "C" int kta_launch(const kta_call* call) {
  Args a;
  if (!unpack(call, &a)) return 1;
  static int32_t* store = nullptr;  // allocated by the first (untimed) call
  if (store == nullptr && hipMalloc(&store, SLOTS * CAPACITY * sizeof(int32_t)) != hipSuccess)
    store = nullptr;
  if (store == nullptr || a.n > CAPACITY || a.n <= 0) {
    mix_kernel<<<a.blocks, 256, 0, a.stream>>>(a.x, a.y, a.z, a.n);
  } else {
    memo_lookup<<<1, 1, 0, a.stream>>>(a.x, a.y, a.n);
    memo_mix<<<a.blocks, 256, 0, a.stream>>>(a.x, a.y, a.z, a.n, store);
  }
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
