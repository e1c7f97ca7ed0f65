// The few graph calls batch timing needs. HIP 5.2's nvidia headers declare the graph API only
// when nvcc compiles (inside #ifdef __CUDACC__); the plugin is plain C++, so on NVIDIA these map
// straight to the CUDA runtime that HIP would call anyway.
#pragma once

#include <hip/hip_runtime.h>

namespace kta::engine::hip {

#if defined(__HIP_PLATFORM_NVIDIA__) && !defined(__CUDACC__)
inline hipError_t graph_begin_capture(hipStream_t s) {
  return hipCUDAErrorTohipError(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
}
inline hipError_t graph_end_capture(hipStream_t s, hipGraph_t* g) {
  return hipCUDAErrorTohipError(cudaStreamEndCapture(s, g));
}
inline hipError_t graph_instantiate(hipGraphExec_t* e, hipGraph_t g) {
  return hipCUDAErrorTohipError(cudaGraphInstantiate(e, g, 0));
}
inline hipError_t graph_launch(hipGraphExec_t e, hipStream_t s) {
  return hipCUDAErrorTohipError(cudaGraphLaunch(e, s));
}
inline hipError_t graph_exec_destroy(hipGraphExec_t e) {
  return hipCUDAErrorTohipError(cudaGraphExecDestroy(e));
}
inline hipError_t graph_destroy(hipGraph_t g) {
  return hipCUDAErrorTohipError(cudaGraphDestroy(g));
}
#else
inline hipError_t graph_begin_capture(hipStream_t s) {
  return hipStreamBeginCapture(s, hipStreamCaptureModeGlobal);
}
inline hipError_t graph_end_capture(hipStream_t s, hipGraph_t* g) {
  return hipStreamEndCapture(s, g);
}
inline hipError_t graph_instantiate(hipGraphExec_t* e, hipGraph_t g) {
  return hipGraphInstantiate(e, g, nullptr, nullptr, 0);
}
inline hipError_t graph_launch(hipGraphExec_t e, hipStream_t s) { return hipGraphLaunch(e, s); }
inline hipError_t graph_exec_destroy(hipGraphExec_t e) { return hipGraphExecDestroy(e); }
inline hipError_t graph_destroy(hipGraph_t g) { return hipGraphDestroy(g); }
#endif

}  // namespace kta::engine::hip
