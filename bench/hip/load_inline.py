"""Compile latency of torch.utils.cpp_extension.load_inline for the kernels kta_hip_bench compiles
(bench/hip/kernels/saxpy.hip and matmul.hip, CUDA spelling), each into a fresh build folder so
nothing is reused, for comparison with kta's hipRTC path and `nvcc -shared` (bench/hip/RESULTS.md).
Needs torch with a CUDA toolkit and ninja. Usage: python3 bench/hip/load_inline.py [repeats]"""
import os
import re
import statistics
import sys
import tempfile
import time

import torch
from torch.utils.cpp_extension import load_inline

HERE = os.path.dirname(os.path.abspath(__file__))


def cuda_source(name):
    text = open(os.path.join(HERE, "kernels", name + ".hip")).read()
    # The HIP spellings these kernels use, mapped as HIP's nvidia headers map them.
    names = "".join(f"#define hip{a}_{d} {b}.{d}\n" for a, b in (("BlockIdx", "blockIdx"),
                    ("BlockDim", "blockDim"), ("ThreadIdx", "threadIdx"), ("GridDim", "gridDim"))
                    for d in "xyz")
    text = text.replace("#include <hip/hip_runtime.h>", "#include <cuda_runtime.h>\n" + names)
    kernel = re.search(r"__global__ void (\w+)", text).group(1)
    # A host wrapper load_inline can bind: launches the kernel once on tensors.
    if name == "saxpy":
        wrapper = """
void run(torch::Tensor x, torch::Tensor y, double a) {
  int64_t n = x.numel();
  %s<<<(n + 255) / 256, 256>>>((float)a, x.data_ptr<float>(), y.data_ptr<float>(), n);
}""" % kernel
    else:
        wrapper = """
void run(torch::Tensor A, torch::Tensor B, torch::Tensor C) {
  int64_t M = A.size(0), K = A.size(1), N = B.size(1);
  dim3 grid((N + 31) / 32, (M + 31) / 32), block(32, 32);
  %s<<<grid, block>>>(A.data_ptr<float>(), B.data_ptr<float>(), C.data_ptr<float>(), M, N, K);
}""" % kernel
    decl = wrapper.strip().split("{")[0].strip() + ";"
    return "#include <torch/extension.h>\n" + text + wrapper, "#include <torch/extension.h>\n" + decl


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    print(f"torch {torch.__version__}, CUDA {torch.version.cuda}, {torch.cuda.get_device_name(0)}")
    for name in ("saxpy", "matmul"):
        times = []
        for r in range(repeats):
            with tempfile.TemporaryDirectory() as build:
                t0 = time.perf_counter()
                cuda, cpp = cuda_source(name)
                load_inline(name=f"kta_{name}_{r}_{os.getpid()}", cpp_sources=cpp,
                            cuda_sources=cuda, functions=["run"], build_directory=build,
                            extra_cuda_cflags=["-arch=sm_90"], verbose=False)
                times.append(time.perf_counter() - t0)
        print(f"{name}: load_inline {', '.join(f'{t:.1f}' for t in times)} s, median {statistics.median(times):.1f} s")


if __name__ == "__main__":
    main()
