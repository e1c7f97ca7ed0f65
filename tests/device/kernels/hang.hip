#include <hip/hip_runtime.h>

__global__ void hang(volatile int* flag) {
  while (flag[0] == 0) {
  }
}
