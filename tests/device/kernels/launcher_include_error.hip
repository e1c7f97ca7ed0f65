#include <hip/hip_runtime.h>
#include <kta/launch.h>

#include "parts/undeclared.hip"

extern "C" int kta_launch(const kta_call* call) {
  return launch_fill((float*)call->tensors[1].data, call->params[0].i);
}
