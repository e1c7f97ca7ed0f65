#include <hip/hip_runtime.h>
#include <kta/launch.h>

#include <vector>

// Allocates far more host memory than the worker's limit allows.
extern "C" int kta_launch(const kta_call* call) {
  std::vector<char> huge((size_t)call->params[0].i << 30, 1);
  return huge[12345] == 1 ? 0 : 1;
}
