// Exercises the parts of HIP's nvidia headers that CUDA 13 broke, plus the warp votes.
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

__global__ void votes(unsigned long long* out, const float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n && x[i] > 0.0f;
  unsigned long long b = __ballot(v);
  float s = __shfl_xor(i < n ? x[i] : 0.0f, 1);
  if (threadIdx.x == 0) {
    out[0] = b;
    out[1] = __any(v);
    out[2] = __all(v);
    out[3] = static_cast<unsigned long long>(s);
  }
}

int main() {
  hipDeviceProp_t prop;
  if (hipGetDeviceProperties(&prop, 0) != hipSuccess) return 1;
  int value = 0;
  hipDeviceGetAttribute(&value, hipDeviceAttributeCooperativeMultiDeviceLaunch, 0);
  float* x = nullptr;
  unsigned long long* out = nullptr;
  hipMalloc(&x, 64 * sizeof(float));
  hipMalloc(&out, 4 * sizeof(unsigned long long));
  hipMemAdvise(x, 64 * sizeof(float), hipMemAdviseSetReadMostly, 0);
  hipMemPrefetchAsync(x, 64 * sizeof(float), 0, nullptr);
  hipLaunchKernelGGL(votes, dim3(1), dim3(64), 0, 0, out, x, 64);
  hipGraph_t graph;
  hipGraphCreate(&graph, 0);
  hipGraphNode_t a, b;
  hipGraphAddEmptyNode(&a, graph, nullptr, 0);
  hipGraphAddEmptyNode(&b, graph, nullptr, 0);
  hipGraphAddDependencies(graph, &a, &b, 1);
  size_t edges = 0;
  hipGraphGetEdges(graph, nullptr, nullptr, &edges);
  hipCtx_t ctx;
  hipCtxCreate(&ctx, 0, 0);
  hiprtcProgram prog;
  hiprtcCreateProgram(&prog, "__global__ void k() {}", "k.cu", 0, nullptr, nullptr);
  return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
