// Benchmarks of the cpu device: (a) an elementwise kernel over 2^24 floats, (b) a shared-memory
// block reduction over 2^24 floats, (c) a 512x512x512 tiled matmul, each against a plain C++
// loop doing the same work in the same run (median of several runs, ratio device/loop); and
// compile + load of a kernel, cold (empty cache) and cached (a fresh worker process loading it
// from the disk cache); (d) the cold flush, warm against cold. Usage: cpu_device_bench [--quick]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <thread>
#include <vector>

#include "engine/device/cpu/cpu_device.h"
#include "engine/device/remote/remote_device.h"

using namespace kta::engine;
namespace fs = std::filesystem;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double median_of(int runs, const std::function<void()>& f) {
  std::vector<double> t;
  f();  // warm up
  for (int i = 0; i < runs; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(seconds_since(t0));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

KernelArg ptr(Buffer b) {
  KernelArg a;
  a.type = ArgType::ptr;
  a.pointee = "float";
  a.buffer = b;
  return a;
}
KernelArg scalar(ArgType t, double v) {
  KernelArg a;
  a.type = t;
  if (t == ArgType::f32 || t == ArgType::f64)
    a.scalar.f = v;
  else
    a.scalar.i = int64_t(v);
  return a;
}
LaunchConfig geom(Dim3 g, Dim3 b) {
  LaunchConfig c;
  c.grid = g;
  c.block = b;
  return c;
}

uint64_t compile(Device& d, const char* file, const char* entry) {
  CompileRequest r;
  r.source = std::string(KTA_BENCH_KERNELS) + "/" + file;
  r.entry = entry;
  CompileResult c = d.compile(r);
  if (!c.ok) {
    std::fprintf(stderr, "%s: %s\n%s\n", file, c.error.c_str(), c.log.c_str());
    std::exit(1);
  }
  return c.module;
}

void launch(Device& d, uint64_t m, const std::vector<KernelArg>& a, const LaunchConfig& c) {
  LaunchResult r = d.launch(m, a, c);
  if (!r.ok) {
    std::fprintf(stderr, "launch failed: %s\n", r.error.c_str());
    std::exit(1);
  }
}

void report(const char* what, double device, double loop, double target) {
  std::printf("%-44s device %9.2f ms   loop %9.2f ms   ratio %6.2fx   (target <= %.0fx)\n", what,
              device * 1e3, loop * 1e3, device / loop, target);
}

// Compile + load. The first compile of each kind (plain-loop or fiber kernel) into an empty
// cache also builds the precompiled device-model header; later cold compiles (no cached object
// for the kernel) reuse it.
void bench_compile(Device& dev, const DeviceOptions& opts) {
  CompileRequest cold;
  cold.source = std::string(KTA_BENCH_KERNELS) + "/elementwise.hip";
  cold.entry = "affine";
  CompileResult c0 = dev.compile(cold);
  cold.source = std::string(KTA_BENCH_KERNELS) + "/reduce.hip";
  cold.entry = "block_sum";
  CompileResult c1 = dev.compile(cold);
  std::printf(
      "first compile+load, empty cache (builds the precompiled header): elementwise %.0f ms, "
      "reduce %.0f ms\n",
      c0.seconds * 1e3, c1.seconds * 1e3);
  cold.source = std::string(KTA_BENCH_KERNELS) + "/reduce_chunked.hip";
  cold.entry = "chunk_sum";
  CompileResult c3 = dev.compile(cold);
  cold.source = std::string(KTA_BENCH_KERNELS) + "/matmul.hip";
  cold.entry = "matmul";
  CompileResult c4 = dev.compile(cold);
  std::printf(
      "compile+load cold (kernel not cached): reduce_chunked %.0f ms, matmul %.0f ms (target <= "
      "1500 ms)\n",
      c3.seconds * 1e3, c4.seconds * 1e3);
  // Cached: a fresh worker process loads the object from the disk cache (the engine's path).
  remote::RemoteDevice remote(opts);
  CompileRequest warm = cold;
  auto t0 = std::chrono::steady_clock::now();
  CompileResult c2 = remote.compile(warm);
  double round_trip = seconds_since(t0);
  std::printf(
      "compile+load cached: matmul %.1f ms in the worker, %.1f ms with the round trip (hit=%d, "
      "target <= 50 ms)\n",
      c2.seconds * 1e3, round_trip * 1e3, int(c2.cache_hit));
}

// 2^24 floats on the host and on the device: the input of (a) and (b).
struct Floats {
  static constexpr long n = 1L << 24;
  std::vector<float> x;
  Buffer bx;
};

Floats upload_floats(Device& dev) {
  Floats f;
  f.x.resize(Floats::n);
  for (long i = 0; i < Floats::n; ++i) f.x[i] = float(i % 1000) * 0.001f;
  f.bx = dev.alloc(Floats::n * 4);
  dev.upload(f.bx, f.x.data(), Floats::n * 4);
  return f;
}

// (a) elementwise, 2^24 floats.
void bench_elementwise(Device& dev, const Floats& in, int runs) {
  const long n = Floats::n;
  std::vector<float> y(n);
  Buffer by = dev.alloc(n * 4);
  uint64_t ew = compile(dev, "elementwise.hip", "affine");
  std::vector<KernelArg> ew_args = {ptr(in.bx), ptr(by), scalar(ArgType::f32, 2.0),
                                    scalar(ArgType::f32, 1.0), scalar(ArgType::i64, double(n))};
  double t_dev = median_of(runs, [&] {
    launch(dev, ew, ew_args, geom({uint32_t(n / 256), 1, 1}, {256, 1, 1}));
  });
  double t_loop = median_of(runs, [&] {
    const float* __restrict__ xp = in.x.data();
    float* __restrict__ yp = y.data();
    for (long i = 0; i < n; ++i) yp[i] = 2.0f * xp[i] + 1.0f;
    asm volatile("" : : "r"(yp) : "memory");
  });
  report("(a) elementwise y = 2x + 1, 2^24 floats", t_dev, t_loop, 3);
}

// (b) shared-memory block reduction, 2^24 floats: each block reduces a contiguous chunk.
void bench_reduction(Device& dev, const Floats& in, int runs, bool quick) {
  const long n = Floats::n;
  uint64_t red = compile(dev, "reduce_chunked.hip", "chunk_sum");
  const uint32_t blocks = 1024;
  Buffer bp = dev.alloc(blocks * 4);
  std::vector<float> partial(blocks);
  double dev_sum = 0;
  double t_dev = median_of(runs, [&] {
    launch(dev, red, {ptr(in.bx), ptr(bp), scalar(ArgType::i64, double(n))},
           geom({blocks, 1, 1}, {256, 1, 1}));
    dev.download(partial.data(), bp, blocks * 4);
    dev_sum = 0;
    for (float p : partial) dev_sum += p;  // the second pass, as a GPU would do in a tiny launch
  });
  double loop_sum = 0;
  double t_loop = median_of(runs, [&] {
    float s = 0;
    for (long i = 0; i < n; ++i) s += in.x[i];
    loop_sum = s;
    asm volatile("" : : "r"(&loop_sum) : "memory");
  });
  report("(b) block reduction, 1024x256, 2^24 floats", t_dev, t_loop, 15);
  if (std::fabs(dev_sum - loop_sum) > 1e-3 * std::fabs(loop_sum) + 1)
    std::printf("    sums differ: %f vs %f\n", dev_sum, loop_sum);
  // The same with a grid-stride loop over the whole array: each thread's accesses are a grid
  // apart, and the threads of a block run one after another on a cpu, so every access misses.
  uint64_t red_gs = compile(dev, "reduce.hip", "block_sum");
  double t_gs = median_of(quick ? 1 : 3, [&] {
    launch(dev, red_gs, {ptr(in.bx), ptr(bp), scalar(ArgType::i64, double(n))},
           geom({blocks, 1, 1}, {256, 1, 1}));
  });
  report("    (grid-stride variant, 1024x256)", t_gs, t_loop, 15);
}

// (c) 512x512x512 tiled matmul, against an i-k-j and a naive i-j-k loop.
void bench_matmul(Device& dev, bool quick) {
  const int M = 512;
  std::vector<float> A(M * M), B(M * M), C(M * M), Cref(M * M);
  for (int i = 0; i < M * M; ++i)
    A[i] = float((i * 7) % 13) * 0.1f, B[i] = float((i * 5) % 11) * 0.1f;
  Buffer ba = dev.alloc(M * M * 4), bb = dev.alloc(M * M * 4), bc = dev.alloc(M * M * 4);
  dev.upload(ba, A.data(), M * M * 4);
  dev.upload(bb, B.data(), M * M * 4);
  uint64_t mm = compile(dev, "matmul.hip", "matmul");
  std::vector<KernelArg> mm_args = {ptr(ba),
                                    ptr(bb),
                                    ptr(bc),
                                    scalar(ArgType::i32, M),
                                    scalar(ArgType::i32, M),
                                    scalar(ArgType::i32, M)};
  double t_dev = median_of(quick ? 1 : 3, [&] {
    launch(dev, mm, mm_args, geom({M / 16, M / 16, 1}, {16, 16, 1}));
  });
  double t_loop = median_of(quick ? 1 : 3, [&] {
    std::fill(Cref.begin(), Cref.end(), 0.0f);
    for (int i = 0; i < M; ++i)
      for (int k = 0; k < M; ++k) {
        float a = A[i * M + k];
        for (int j = 0; j < M; ++j) Cref[i * M + j] += a * B[k * M + j];
      }
    asm volatile("" : : "r"(Cref.data()) : "memory");
  });
  double t_naive = median_of(1, [&] {
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < M; ++j) {
        float s = 0;
        for (int k = 0; k < M; ++k) s += A[i * M + k] * B[k * M + j];
        C[i * M + j] = s;
      }
    asm volatile("" : : "r"(C.data()) : "memory");
  });
  report("(c) tiled matmul 512^3 vs i-k-j loop", t_dev, t_loop, 10);
  report("    (same, vs naive i-j-k loop)", t_dev, t_naive, 10);
  dev.download(C.data(), bc, M * M * 4);
  double err = 0;
  for (int i = 0; i < M * M; ++i) err = std::max(err, double(std::fabs(C[i] - Cref[i])));
  std::printf("    max |device - loop| = %g\n", err);
}

// (d) The cold protocol's flush: a gather y[i] = x[index[i]] over a random permutation of 2^20
// elements (12 MiB in all, within any server LLC), timed warm (no flush) and cold (flush before
// each sample) on the device's timer (CPU seconds per launch), and what one cold sample costs in
// wall time. Random reads defeat the prefetchers, so a flush that evicts makes the cold launch
// clearly slower than the warm one.
void bench_flush(Device& dev, int runs) {
  const long n = 1L << 20;
  std::vector<float> x(n, 0.5f);
  std::vector<int> index(n);
  for (long i = 0; i < n; ++i) index[i] = int(i);
  uint64_t state = 0x9e3779b97f4a7c15ull;
  for (long i = n - 1; i > 0; --i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    std::swap(index[i], index[long((state >> 33) % uint64_t(i + 1))]);
  }
  Buffer bx = dev.alloc(n * 4), bi = dev.alloc(n * 4), by = dev.alloc(n * 4);
  dev.upload(bx, x.data(), n * 4);
  dev.upload(bi, index.data(), n * 4);
  uint64_t k = compile(dev, "gather.hip", "gather");
  KernelArg idx = ptr(bi);
  idx.pointee = "int";
  std::vector<KernelArg> args = {ptr(bx), idx, ptr(by), scalar(ArgType::i64, double(n))};
  LaunchConfig g = geom({uint32_t(n / 256), 1, 1}, {256, 1, 1});
  auto sample = [&](bool flush) {
    std::vector<double> t;
    for (int i = 0; i < 2 * runs + 1; ++i) {
      TimedResult r = dev.timed_launch(k, args, g, flush, 1);
      if (!r.status.ok) {
        std::fprintf(stderr, "timed launch failed: %s\n", r.status.error.c_str());
        std::exit(1);
      }
      t.push_back(r.seconds);
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
  };
  double warm = sample(false), cold = sample(true);
  double cold_wall = median_of(runs, [&] { dev.timed_launch(k, args, g, true, 1); });
  std::printf(
      "(d) cold flush, random gather over 12 MiB: warm %.3f ms, cold %.3f ms per launch "
      "(cold/warm %.2fx); one cold sample %.1f ms wall; LLC reported %zu MiB\n",
      warm * 1e3, cold * 1e3, cold / warm, cold_wall * 1e3, dev.info().l2_bytes >> 20);
}

}  // namespace

int main(int argc, char** argv) {
  bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  int runs = quick ? 3 : 7;
  fs::path cache = fs::temp_directory_path() / ("kta-bench-cache-" + std::to_string(::getpid()));
  DeviceOptions opts;
  opts.cache_dir = cache;
  cpu::CpuDevice dev(opts);
  std::printf("cpu device: %s, %u hardware threads\n", dev.info().name.c_str(),
              std::thread::hardware_concurrency());
  bench_compile(dev, opts);
  const Floats floats = upload_floats(dev);
  bench_elementwise(dev, floats, runs);
  bench_reduction(dev, floats, runs, quick);
  bench_matmul(dev, quick);
  bench_flush(dev, runs);
  std::error_code ec;
  fs::remove_all(cache, ec);
  return 0;
}
