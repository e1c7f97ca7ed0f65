// Adversarial case off_cpu (a launcher of the mix task, for the cpu device): does the work in a
// child process (on the cpu device the buffers are shared memory, so the child's writes land) and
// waits for it, hoping the worker's CPU-time clock misses the child's. The device is its
// processes' subreaper and counts their CPU time: it gains nothing. (On a GPU the pointers are
// device memory and the child cannot use the GPU: this case is for the cpu device only.)
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

#include <sys/wait.h>
#include <unistd.h>

extern "C" int kta_launch(const kta_call* call) {
  Args a;
  if (!unpack(call, &a)) return 1;
  pid_t child = fork();
  if (child == 0) {
    for (int64_t i = 0; i < a.n; ++i) a.z[i] = mix_value(a.x[i], a.y[i]);
    _exit(0);
  }
  if (child < 0) return 2;
  int status = 0;
  waitpid(child, &status, 0);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 3;
}
