// Adversarial case detached_child: hands the work to a grandchild (a double fork) and returns at
// once, so the launch looks instant and the output is written later. The device is its
// processes' subreaper: a launch that leaves a process running fails by name.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  pid_t child = fork();
  if (child == 0) {
    if (fork() == 0) {
      usleep(20000);
      for (int64_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
    }
    _exit(0);
  }
  if (child > 0) waitpid(child, nullptr, 0);  // the middle process exits at once
}
