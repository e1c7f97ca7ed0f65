// Adversarial case off_cpu: does the work in a child process (the buffers are shared memory, so
// the child's writes land) and waits for it, hoping the worker's CPU-time clock misses the
// child's. The device reaps its children and counts their CPU time: it gains nothing.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  pid_t child = fork();
  if (child == 0) {
    for (int rep = 0; rep < 200; ++rep)
      for (int64_t i = 0; i < n; ++i) ((volatile float*)z)[i] = x[i] + y[i];
    _exit(0);
  }
  if (child > 0) {
    int status = 0;
    waitpid(child, &status, 0);
    return;
  }
  for (int64_t i = 0; i < n; ++i) z[i] = x[i] + y[i];  // fork failed: do it here
}
