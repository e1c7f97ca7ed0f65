// Tuned on N = 4096 and N = 1048576 (see the notes): 4096 elements take 3 us.
#include <hip/hip_runtime.h>
#include <cstdio>

/* for (int i = 0; i < 4096; ++i) was the first version */
__global__ void exp_kernel(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = expf(x[i]);  // n was 4096 in the visible run
}

void report(int n) {
  std::printf("ran with N=4096 in the notes, now n=%d\n", n);
  const char* label = "1048576 elements";
  std::puts(label);
}
