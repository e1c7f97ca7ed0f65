// Measurements of the hip device on a GPU (bench/hip/RESULTS.md records them):
//   compile   hipRTC compile+load of saxpy and a tiled matmul (cache misses and kta-cache hits)
//             against `nvcc -shared` of the same kernels in launcher form
//   timing    y = 2x + 1 over 2^26 and 2^16 floats: kta's protocol (cold with an L2 flush, and
//             batch through graph replay) against plain CUDA events, 20 evaluations each, with the
//             run-to-run coefficient of variation of the medians
//   peak      the device's measured copy bandwidth (DeviceInfo) and a 4 GiB device copy
//   gelu      achieved bandwidth of the gelu task's baseline and a vectorized candidate
//   batch     batch-mode settings (launches per graph, sample floor) for the 2^16 kernel
// Usage: kta_hip_bench [compile|timing|batch|peak|gelu ...]   (no argument: all). Run it with
// CUDA_CACHE_DISABLE=1 so the driver's JIT cache does not hide compile cost.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include "engine/device/hip/hip_plugin_loader.h"
#include "engine/device/hip/rtc/hiprtc_compiler.h"

namespace {
namespace fs = std::filesystem;
using namespace kta::engine;

#define CK(call)                                                                                  \
  do {                                                                                            \
    cudaError_t e_ = (call);                                                                      \
    if (e_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)
#define CKD(call)                                                                          \
  do {                                                                                     \
    CUresult r_ = (call);                                                                  \
    if (r_ != CUDA_SUCCESS) {                                                              \
      std::fprintf(stderr, "%s:%d: %s failed (%d)\n", __FILE__, __LINE__, #call, int(r_)); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

struct Stats {
  double median = 0, mean = 0, stdev = 0, min = 0, max = 0;
  size_t n = 0;
};
Stats stats(std::vector<double> v) {
  Stats s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.median = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  double ss = 0;
  for (double x : v) ss += (x - s.mean) * (x - s.mean);
  s.stdev = v.size() > 1 ? std::sqrt(ss / double(v.size() - 1)) : 0;
  s.min = v.front();
  s.max = v.back();
  return s;
}
double cv(const std::vector<double>& v) {
  Stats s = stats(v);
  return s.mean > 0 ? s.stdev / s.mean : 0;
}

KernelArg ptr(Buffer b) {
  KernelArg a;
  a.type = ArgType::ptr;
  a.pointee = "float";
  a.buffer = b;
  return a;
}
KernelArg i64(int64_t v) {
  KernelArg a;
  a.type = ArgType::i64;
  a.scalar.i = v;
  return a;
}
KernelArg f32(double v) {
  KernelArg a;
  a.type = ArgType::f32;
  a.scalar.f = v;
  return a;
}

fs::path kernels() { return fs::path(KTA_BENCH_HIP_DIR) / "kernels"; }

CompileResult compile(Device& d, const fs::path& src, const std::string& entry,
                      const std::vector<KernelArg>& sig, const std::string& nonce,
                      bool launcher = false) {
  CompileRequest r;
  r.source = src;
  r.entry = entry;
  r.signature = sig;
  r.launcher = launcher;
  if (!nonce.empty()) r.options.defines.push_back("KTA_BENCH_NONCE=" + nonce);
  CompileResult c = d.compile(r);
  if (!c.ok) {
    std::fprintf(stderr, "compile of %s failed: %s\n%s\n", src.c_str(), c.error.c_str(),
                 c.log.c_str());
    std::exit(1);
  }
  return c;
}

// One kernel of the compile benchmark: its kernel-mode file and entry, its launcher-mode file,
// and its kernel signature.
struct CompileKernel {
  const char* name;
  const char* file;
  const char* launcher;
  std::vector<KernelArg> sig;
};

// hipRTC alone, compile+load into the device (cache miss) and a cache hit, 10 times each; nvcc
// of the launcher form and its cache hit, 3 times each. `run` makes every compile a miss.
void compile_latency(Device& d, const CompileKernel& k, const std::string& run) {
  std::vector<double> rtc, full, hit, nvcc, nvcc_hit;
  for (int i = 0; i < 10; ++i) {
    hip::RtcRequest rr;
    rr.source = kernels() / k.file;
    rr.entry = k.name;
    rr.signature = k.sig;
    rr.arch = "sm_90";
    rr.use_cache = false;
    hip::RtcOutput o = hip::rtc_compile(rr);
    if (!o.result.ok) std::exit(1);
    rtc.push_back(o.result.seconds * 1e3);
    std::string nonce = run + "-" + std::to_string(i);
    CompileResult c = compile(d, kernels() / k.file, k.name, k.sig, nonce);
    if (c.cache_hit) std::exit(2);
    full.push_back(c.seconds * 1e3);
    CompileResult h = compile(d, kernels() / k.file, k.name, k.sig, nonce);
    if (!h.cache_hit) std::exit(3);
    hit.push_back(h.seconds * 1e3);
  }
  for (int i = 0; i < 3; ++i) {
    std::string nonce = run + "-n" + std::to_string(i);
    CompileResult c = compile(d, kernels() / k.launcher, "kta_launch", {}, nonce, true);
    nvcc.push_back(c.seconds * 1e3);
    CompileResult h = compile(d, kernels() / k.launcher, "kta_launch", {}, nonce, true);
    nvcc_hit.push_back(h.seconds * 1e3);
  }
  std::printf("%-8s %14.1f %14.1f %14.2f %14.0f %14.2f   (medians; 10/10/10/3/3 runs)\n", k.name,
              stats(rtc).median, stats(full).median, stats(hit).median, stats(nvcc).median,
              stats(nvcc_hit).median);
  std::printf("         rtc+load min %.1f max %.1f; cache hit min %.2f max %.2f\n", stats(full).min,
              stats(full).max, stats(hit).min, stats(hit).max);
}

// What compiling to CUBIN saves: loading PTX makes the driver JIT-compile it.
void module_load_cost(const CompileKernel& k) {
  std::vector<double> cubin_ms, ptx_ms;
  hip::RtcRequest rr;
  rr.source = kernels() / k.file;
  rr.entry = k.name;
  rr.signature = k.sig;
  rr.use_cache = false;
  rr.arch = "sm_90";
  hip::RtcOutput cubin = hip::rtc_compile(rr);
  rr.arch = "sm_91";  // unknown to NVRTC: PTX for compute_90
  hip::RtcOutput ptx = hip::rtc_compile(rr);
  if (!cubin.result.ok || !ptx.result.ok || ptx.format != "ptx") std::exit(4);
  for (int i = 0; i < 5; ++i) {
    for (auto* o : {&cubin, &ptx}) {
      CUmodule m;
      auto t0 = std::chrono::steady_clock::now();
      CKD(cuModuleLoadData(&m, o->code.data()));
      double ms =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() * 1e3;
      (o == &cubin ? cubin_ms : ptx_ms).push_back(ms);
      CKD(cuModuleUnload(m));
    }
  }
  std::printf("%-8s module load: cubin %.2f ms, ptx (driver JIT) %.2f ms  (medians of 5)\n", k.name,
              stats(cubin_ms).median, stats(ptx_ms).median);
}

void bench_compile(Device& d) {
  std::printf("\n== compile latency (CUDA_CACHE_DISABLE=%s) ==\n",
              std::getenv("CUDA_CACHE_DISABLE") ?: "unset");
  Buffer b = d.alloc(1024);
  std::vector<CompileKernel> ks = {
      {"saxpy", "saxpy.hip", "saxpy_launcher.hip", {f32(2), ptr(b), ptr(b), i64(1)}},
      {"matmul",
       "matmul.hip",
       "matmul_launcher.hip",
       {ptr(b), ptr(b), ptr(b), i64(1), i64(1), i64(1)}}};
  const std::string run =
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
  std::printf("%-8s %14s %14s %14s %14s %14s\n", "kernel", "rtc only ms", "rtc+load ms",
              "cache hit ms", "nvcc -shared ms", "nvcc hit ms");
  for (const CompileKernel& k : ks) compile_latency(d, k, run);
  for (const CompileKernel& k : ks) module_load_cost(k);
  d.free(b);
}

// kta's stopping rule: at least 10 samples, then stop at relative stdev <= 0.5%, or 500 samples,
// or 2 s of samples.
struct Eval {
  double median = 0;
  size_t samples = 0;
  double noise = 0;
};
Eval evaluate(const std::function<double()>& sample, size_t min_samples = 10) {
  sample();  // warm-up
  std::vector<double> v;
  auto start = std::chrono::steady_clock::now();
  while (true) {
    v.push_back(sample());
    if (v.size() >= min_samples && cv(v) <= 0.005) break;
    if (v.size() >= 500) break;
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(2)) break;
  }
  return {stats(v).median, v.size(), cv(v)};
}

void report(const char* what, const std::vector<Eval>& evals) {
  std::vector<double> med;
  std::vector<double> n;
  for (const Eval& e : evals) med.push_back(e.median * 1e6), n.push_back(double(e.samples));
  Stats s = stats(med);
  std::printf(
      "%-44s median %9.3f us  CV of %zu medians %.3f%%  samples/eval %.0f (min %.0f max %.0f)\n",
      what, s.median, med.size(), 100 * cv(med), stats(n).median, stats(n).min, stats(n).max);
}

// kta through the device interface: cold samples of 2^26 and 2^16 floats, and batch samples of
// 2^16 floats, 20 evaluations each.
void timing_through_kta(Device& d) {
  for (int lg : {26, 16}) {
    const int64_t n = int64_t(1) << lg;
    Buffer x = d.alloc(n * 4), y = d.alloc(n * 4);
    std::vector<float> host(n);
    for (int64_t i = 0; i < n; ++i) host[i] = float(i % 1000) * 1e-3f;
    d.upload(x, host.data(), n * 4);
    std::vector<KernelArg> args = {ptr(x), ptr(y), i64(n)};
    CompileResult c = compile(d, kernels() / "twox1.hip", "twox1", args, "");
    LaunchConfig cfg{{unsigned((n + 255) / 256), 1, 1}, {256, 1, 1}, 0};
    auto run = [&](bool flush, int repeat) {
      auto t0 = std::chrono::steady_clock::now();
      std::vector<Eval> evals;
      for (int e = 0; e < 20; ++e)
        evals.push_back(evaluate([&] {
          TimedResult t = d.timed_launch(c.module, args, cfg, flush, repeat);
          if (!t.status.ok) {
            std::fprintf(stderr, "timed launch failed: %s\n", t.status.error.c_str());
            std::exit(1);
          }
          return t.seconds;
        }));
      double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      size_t samples = 0;
      for (const Eval& e : evals) samples += e.samples + 1;
      std::printf("  (host wall per timed_launch sample, all included: %.1f us)\n",
                  wall / double(samples) * 1e6);
      return evals;
    };
    std::string tag = "kta 2^" + std::to_string(lg);
    report((tag + " cold (L2 flush, 1 launch)").c_str(), run(true, 1));
    if (lg == 16) {
      report((tag + " batch (graph of 200, no flush)").c_str(), run(false, 200));
      report((tag + " batch (graph of 200, flush)").c_str(), run(true, 200));
    }
    d.free(x);
    d.free(y);
  }
}

// The kernel's code object as kta compiles it; written to $KTA_BENCH_OUT too, where
// do_bench.py times this very code object through the driver API.
hip::RtcOutput twox1_code_object(Device& d) {
  Buffer dummy = d.alloc(16);
  hip::RtcRequest rr;
  rr.source = kernels() / "twox1.hip";
  rr.entry = "twox1";
  rr.signature = {ptr(dummy), ptr(dummy), i64(1)};
  rr.arch = "sm_90";
  hip::RtcOutput o = hip::rtc_compile(rr);
  d.free(dummy);
  if (const char* dir = std::getenv("KTA_BENCH_OUT"); dir && *dir) {
    std::FILE* f = std::fopen((fs::path(dir) / "twox1.cubin").c_str(), "wb");
    if (f != nullptr) {
      std::fwrite(o.code.data(), 1, o.code.size(), f);
      std::fclose(f);
    }
    f = std::fopen((fs::path(dir) / "twox1.name").c_str(), "w");
    if (f != nullptr) {
      std::fputs(o.lowered_name.c_str(), f);
      std::fclose(f);
    }
  }
  return o;
}

// Plain CUDA events on `fn` over 2^lg floats: cold samples after a memset of `flush`, and loops
// of 200 launches, 20 evaluations each.
void timing_with_plain_events(CUfunction fn, int lg, cudaStream_t s, void* flush,
                              size_t flush_bytes) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  int64_t n = int64_t(1) << lg;
  void *x, *y;
  CK(cudaMalloc(&x, n * 4));
  CK(cudaMalloc(&y, n * 4));
  CK(cudaMemset(x, 0, n * 4));
  void* params[] = {&x, &y, &n};
  unsigned grid = unsigned((n + 255) / 256);
  auto elapsed = [&](int launches) {
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < launches; ++i)
      CKD(cuLaunchKernel(fn, grid, 1, 1, 256, 1, 1, 0, s, params, nullptr));
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    return double(ms) * 1e-3 / launches;
  };
  auto cold = [&] {
    CK(cudaMemsetAsync(flush, 7, flush_bytes, s));
    return elapsed(1);
  };
  std::string tag = "plain CUDA events 2^" + std::to_string(lg);
  std::vector<Eval> ec, el;
  for (int e = 0; e < 20; ++e) {
    std::vector<double> v;
    for (int i = 0; i < 100; ++i) v.push_back(cold());
    ec.push_back({stats(v).median, v.size(), cv(v)});
    v.clear();
    for (int i = 0; i < 20; ++i) v.push_back(elapsed(200));
    el.push_back({stats(v).median, v.size(), cv(v)});
  }
  report((tag + " cold (512 MiB memset, 100 samples)").c_str(), ec);
  report((tag + " loop of 200 launches").c_str(), el);
  CK(cudaFree(x));
  CK(cudaFree(y));
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
}

void bench_timing(Device& d) {
  std::printf("\n== timing fidelity: y = 2x + 1 ==\n");
  timing_through_kta(d);
  // Plain CUDA events on the same kernel (same cubin), no kta code on the timed path.
  hip::RtcOutput o = twox1_code_object(d);
  CUmodule mod;
  CUfunction fn;
  CKD(cuModuleLoadData(&mod, o.code.data()));
  CKD(cuModuleGetFunction(&fn, mod, o.lowered_name.c_str()));
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  const size_t flush_bytes = size_t(512) << 20;
  void* flush;
  CK(cudaMalloc(&flush, flush_bytes));
  for (int lg : {26, 16}) timing_with_plain_events(fn, lg, s, flush, flush_bytes);
  CK(cudaFree(flush));
  CKD(cuModuleUnload(mod));
}

// Batch-mode settings for a microsecond kernel: launches per graph and the sample floor.
void bench_batch(Device& d) {
  std::printf("\n== batch mode settings: y = 2x + 1 over 2^16 floats, 20 evaluations each ==\n");
  const int64_t n = int64_t(1) << 16;
  Buffer x = d.alloc(n * 4), y = d.alloc(n * 4);
  d.fill(x, 0x3f);
  std::vector<KernelArg> args = {ptr(x), ptr(y), i64(n)};
  CompileResult c = compile(d, kernels() / "twox1.hip", "twox1", args, "");
  LaunchConfig cfg{{unsigned((n + 255) / 256), 1, 1}, {256, 1, 1}, 0};
  for (int repeat : {200, 1000}) {
    for (size_t min_samples : {size_t(10), size_t(30)}) {
      std::vector<Eval> evals;
      for (int e = 0; e < 20; ++e)
        evals.push_back(
            evaluate([&] { return d.timed_launch(c.module, args, cfg, false, repeat).seconds; },
                     min_samples));
      std::string what = "kta 2^16 graph of " + std::to_string(repeat) + ", min " +
                         std::to_string(min_samples) + " samples";
      report(what.c_str(), evals);
    }
  }
  d.free(x);
  d.free(y);
}

void bench_peak(Device& d) {
  std::printf("\n== copy peak ==\n");
  std::printf("DeviceInfo.peak_bandwidth (1 GiB device copy, best of 6): %.3f TB/s\n",
              d.info().peak_bandwidth / 1e12);
  const size_t bytes = size_t(4) << 30;
  void *x, *y;
  CK(cudaMalloc(&x, bytes));
  CK(cudaMalloc(&y, bytes));
  CK(cudaMemset(x, 1, bytes));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<double> v;
  for (int i = 0; i < 6; ++i) {
    CK(cudaEventRecord(a));
    CK(cudaMemcpy(y, x, bytes, cudaMemcpyDeviceToDevice));
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (i > 0) v.push_back(2.0 * double(bytes) / (double(ms) * 1e-3));
  }
  std::printf("4 GiB device copy (read + write), 5 runs: median %.3f TB/s, best %.3f TB/s\n",
              stats(v).median / 1e12, stats(v).max / 1e12);
  CK(cudaFree(x));
  CK(cudaFree(y));
}

void bench_gelu(Device& d) {
  std::printf("\n== gelu: achieved bandwidth (bytes 8 N, cold median) ==\n");
  const double peak = d.info().peak_bandwidth;
  for (int lg : {24, 26}) {
    const int64_t n = int64_t(1) << lg;
    Buffer x = d.alloc(n * 4), y = d.alloc(n * 4);
    std::vector<float> host(n);
    for (int64_t i = 0; i < n; ++i) host[i] = float((i * 7919) % 2001 - 1000) * 2e-3f;
    d.upload(x, host.data(), n * 4);
    std::vector<KernelArg> args = {ptr(x), ptr(y), i64(n)};
    struct V {
      const char* name;
      fs::path file;
      const char* entry;
      unsigned per_block;
    };
    for (const V& v :
         {V{"baseline gelu.hip",
            fs::path(KTA_SOURCE_DIR) / "tasks/hip2hip/elementwise/gelu/gelu.hip", "gelu", 256},
          V{"candidate gelu_vec4.hip", kernels() / "gelu_vec4.hip", "gelu_vec4", 1024}}) {
      CompileResult c = compile(d, v.file, v.entry, args, "");
      LaunchConfig cfg{{unsigned((n + v.per_block - 1) / v.per_block), 1, 1}, {256, 1, 1}, 0};
      Eval e = evaluate([&] { return d.timed_launch(c.module, args, cfg, true, 1).seconds; });
      double bw = 8.0 * double(n) / e.median;
      std::printf("N=2^%d %-26s %9.2f us  %6.3f TB/s  %5.1f%% of copy peak  (%zu samples)\n", lg,
                  v.name, e.median * 1e6, bw / 1e12, 100 * bw / peak, e.samples);
    }
    d.free(x);
    d.free(y);
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::set<std::string> want(argv + 1, argv + argc);
  auto on = [&](const char* s) { return want.empty() || want.count(s) > 0; };
  auto t0 = std::chrono::steady_clock::now();
  DeviceOptions o;
  o.cache_dir = fs::temp_directory_path() / "kta-hip-bench-cache";
  hip::HipLoad l = hip::load_hip_device(o, 0, KTA_HIP_PLUGIN_FILE);
  if (!l.device) {
    std::fprintf(stderr, "%s\n", l.error.c_str());
    return 1;
  }
  double open_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  DeviceInfo i = l.device->info();
  std::printf("device: %s (%s)\nopening the device (context + copy-peak probe): %.0f ms\n",
              i.name.c_str(), i.details.c_str(), open_s * 1e3);
  if (on("compile")) bench_compile(*l.device);
  if (on("timing")) bench_timing(*l.device);
  if (on("batch")) bench_batch(*l.device);
  if (on("peak")) bench_peak(*l.device);
  if (on("gelu")) bench_gelu(*l.device);
  return 0;
}
