"""triton.testing.do_bench on the timing-fidelity probe (y = 2x + 1 over 2^26 and 2^16 floats),
20 evaluations each, for comparison with kta's protocol (kta_hip_bench timing). Two kernels:
  same-cubin  the very code object kta_hip_bench timed (written to $KTA_BENCH_OUT by it), launched
              through the driver API with ctypes, so kta, plain events and do_bench time one kernel
  triton      the same operation written in Triton (4 elements per thread, so it is faster)
Needs torch and triton with a GPU. Usage: KTA_BENCH_OUT=dir python3 bench/hip/do_bench.py"""
import ctypes
import os
import statistics

import torch
import triton
import triton.language as tl


@triton.jit
def twox1(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, 2.0 * x + 1.0, mask=mask)


def cubin_launcher(n, x, y):
    out = os.environ.get("KTA_BENCH_OUT", "")
    path = os.path.join(out, "twox1.cubin")
    if not out or not os.path.exists(path):
        return None
    cuda = ctypes.CDLL("libcuda.so.1")
    cuda.cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [
        ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p]

    def check(rc):
        if rc != 0:
            raise RuntimeError(f"CUDA driver error {rc}")

    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
    image = ctypes.create_string_buffer(open(path, "rb").read())
    check(cuda.cuModuleLoadData(ctypes.byref(mod), image))
    name = open(os.path.join(out, "twox1.name")).read().strip().encode()
    check(cuda.cuModuleGetFunction(ctypes.byref(fn), mod, name))
    args = [ctypes.c_uint64(x.data_ptr()), ctypes.c_uint64(y.data_ptr()), ctypes.c_int64(n)]
    params = (ctypes.c_void_p * 3)(*[ctypes.addressof(a) for a in args])
    grid = (n + 255) // 256

    def launch():
        stream = torch.cuda.current_stream().cuda_stream
        check(cuda.cuLaunchKernel(fn, grid, 1, 1, 256, 1, 1, 0, stream, params, None))

    launch.keep = (image, args, params, mod)
    return launch


def measure(tag, fn, x, y):
    y.zero_()
    fn()
    torch.cuda.synchronize()
    assert torch.equal(y, 2 * x + 1), tag
    meds = [triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median") * 1e3 for _ in range(20)]
    cv = statistics.stdev(meds) / statistics.mean(meds)
    print(f"do_bench {tag}: median {statistics.median(meds):9.3f} us  CV of 20 medians {100 * cv:.3f}%  "
          f"(min {min(meds):.3f} max {max(meds):.3f})")


def main():
    print(f"torch {torch.__version__} triton {triton.__version__} on {torch.cuda.get_device_name()}")
    for lg in (26, 16):
        n = 1 << lg
        x = torch.rand(n, device="cuda")
        y = torch.empty_like(x)
        same = cubin_launcher(n, x, y)
        if same is not None:
            measure(f"2^{lg} same cubin as kta", same, x, y)
        grid = (triton.cdiv(n, 1024),)
        measure(f"2^{lg} triton kernel", lambda: twox1[grid](x, y, n, BLOCK=1024), x, y)


if __name__ == "__main__":
    main()
