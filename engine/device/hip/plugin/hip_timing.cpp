// Measurement on the hip device: events around the timed work on the device's stream; a cold
// sample first writes a buffer several times the L2 so the kernel starts from DRAM; a batch sample
// (repeat > 1) replays a graph of `repeat` captured launches, which removes launch gaps for
// microsecond-scale kernels (back-to-back event loops would time the launch overhead).
#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "engine/device/hip/plugin/hip_check.h"
#include "engine/device/hip/plugin/hip_module.h"
#include "engine/device/hip/rtc/hiprtc_compiler.h"

namespace kta::engine::hip {
namespace {

std::string kernel_key(const KernelLaunch& k) {
  const LaunchConfig& c = k.config;
  std::string key = std::to_string(c.grid.x) + "," + std::to_string(c.grid.y) + "," +
                    std::to_string(c.grid.z) + "|" + std::to_string(c.block.x) + "," +
                    std::to_string(c.block.y) + "," + std::to_string(c.block.z) + "|" +
                    std::to_string(c.shared_bytes);
  for (const KernelArg& a : k.args)
    key += "|" + std::to_string(int(a.type)) + ":" + std::to_string(a.buffer.id) + ":" +
           std::to_string(a.scalar.u);
  return key;
}

std::string call_key(const LauncherArgs& args) {
  std::string k = "call";
  for (const TensorArg& t : args.tensors) {
    k += "|" + std::to_string(t.buffer.id) + ":" + std::to_string(t.dtype);
    for (int64_t d : t.shape) k += "," + std::to_string(d);
  }
  for (const ParamArg& p : args.params) {
    uint64_t f;
    std::memcpy(&f, &p.f, sizeof f);
    k += "|" + std::to_string(p.i) + ":" + std::to_string(f);
  }
  return k;
}

// A batch's graph key: every invocation's arguments, in order.
std::string batch_key(std::span<const Invocation> batch) {
  std::string key = std::to_string(batch.size());
  for (const Invocation& inv : batch)
    key += "#" + (inv.kernel() ? kernel_key(*inv.kernel()) : call_key(*inv.call()));
  return key;
}

// The guard kernel (HipDevice::enqueue_guard): spins for a number of SM clock cycles.
constexpr char kGuardSource[] = R"(#include <hip/hip_runtime.h>
__global__ void kta_guard(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}
)";
constexpr double kGuardMinSeconds = 20e-6, kGuardMaxSeconds = 2e-3;
constexpr size_t kEnqueueHistory = 8;

}  // namespace

void HipDevice::enqueue_guard(hipStream_t stream) {
  if (!guard_tried_) {
    guard_tried_ = true;
    RtcRequest rr;
    rr.source = "kta_guard.hip";
    rr.text = kGuardSource;
    rr.entry = "kta_guard";
    KernelArg cycles;
    cycles.type = ArgType::i64;
    rr.signature = {cycles};
    rr.arch = arch_;
    rr.cache_dir = options_.cache_dir;
    rr.cuda_include_dir = options_.locations.cuda_include_dir;
    RtcOutput out = rtc_compile(rr);
    auto m = std::make_unique<Module>();
    if (out.result.ok && hipModuleLoadData(&m->module, out.code.data()) == hipSuccess) {
      if (hipModuleGetFunction(&m->function, m->module, out.lowered_name.c_str()) == hipSuccess)
        guard_ = std::move(m);
    }
    (void)hipGetLastError();
  }
  if (!guard_ || clock_hz_ <= 0) return;
  double slowest = 0;
  for (double s : enqueue_seconds_) slowest = std::max(slowest, s);
  double seconds = std::clamp(2 * slowest, kGuardMinSeconds, kGuardMaxSeconds);
  long long cycles = static_cast<long long>(seconds * clock_hz_);
  void* params[] = {&cycles};
  (void)hipModuleLaunchKernel(guard_->function, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr);
}

void HipDevice::note_enqueue(double host_seconds) {
  enqueue_seconds_.push_back(host_seconds);
  if (enqueue_seconds_.size() > kEnqueueHistory) enqueue_seconds_.erase(enqueue_seconds_.begin());
}

void HipDevice::flush_l2() {
  if (flush_ == nullptr) {
    // Four times the L2 (at least 64 MiB): a write that size leaves nothing of the kernel's data.
    flush_bytes_ = std::max<size_t>(size_t(4) * info_.l2_bytes, size_t(64) << 20);
    KTA_HIP_REQUIRE(hipMalloc(&flush_, flush_bytes_));
  }
  // A different byte each time, so no layer can skip the write as redundant.
  KTA_HIP_REQUIRE(hipMemsetAsync(flush_, int(++flush_round_ & 0xff), flush_bytes_, stream_));
}

void HipDevice::measure_peak_bandwidth() {
  size_t free_bytes = 0, total = 0;
  KTA_HIP_REQUIRE(hipMemGetInfo(&free_bytes, &total));
  size_t bytes = std::min<size_t>(size_t(1) << 30, free_bytes / 4) & ~size_t(0xfffff);
  if (bytes < (size_t(16) << 20)) return;  // too little memory to measure: stays unknown
  void *a = nullptr, *b = nullptr;
  KTA_HIP_REQUIRE(hipMalloc(&a, bytes));
  if (hipMalloc(&b, bytes) != hipSuccess) {
    (void)hipFree(a);
    return;
  }
  KTA_HIP_REQUIRE(hipMemsetAsync(a, 1, bytes, stream_));
  float best = 0;
  for (int i = 0; i < 8; ++i) {
    KTA_HIP_REQUIRE(hipEventRecord(start_, stream_));
    KTA_HIP_REQUIRE(hipMemcpyAsync(b, a, bytes, hipMemcpyDeviceToDevice, stream_));
    KTA_HIP_REQUIRE(hipEventRecord(stop_, stream_));
    KTA_HIP_REQUIRE(hipEventSynchronize(stop_));
    float ms = 0;
    KTA_HIP_REQUIRE(hipEventElapsedTime(&ms, start_, stop_));
    if (i >= 2 && (best == 0 || ms < best)) best = ms;  // the first copies warm up
  }
  (void)hipFree(a);
  (void)hipFree(b);
  // A copy reads and writes every byte.
  if (best > 0) info_.peak_bandwidth = 2.0 * double(bytes) / (double(best) * 1e-3);
}

// The event timer's tick, measured: elapsed times are differences of timestamps, so every one is
// a multiple of the tick, and copies of a few sizes (1-4 us on a GPU) spread them over enough
// neighbouring multiples that the smallest gap between distinct readings is one tick. CUDA
// documents "about half a microsecond"; what a GPU really ticks at decides how short a kernel
// the cold protocol can time (kta validate's timing.floor). Unknown (0 readings apart): the
// documented figure, said so in `details`.
double HipDevice::measure_timer_resolution() {
  constexpr size_t kBytes = size_t(4) << 20;
  void* scratch = nullptr;
  if (hipMalloc(&scratch, kBytes) != hipSuccess) return 0;
  std::vector<double> readings;
  for (int i = 0; i < 192; ++i) {
    size_t bytes = size_t(4096) << (i % 11);  // 4 KiB .. 4 MiB
    KTA_HIP_REQUIRE(hipEventRecord(start_, stream_));
    KTA_HIP_REQUIRE(hipMemsetAsync(scratch, i & 0xff, std::min(bytes, kBytes), stream_));
    KTA_HIP_REQUIRE(hipEventRecord(stop_, stream_));
    KTA_HIP_REQUIRE(hipEventSynchronize(stop_));
    float ms = 0;
    KTA_HIP_REQUIRE(hipEventElapsedTime(&ms, start_, stop_));
    if (ms > 0) readings.push_back(double(ms) * 1e-3);
  }
  (void)hipFree(scratch);
  std::sort(readings.begin(), readings.end());
  double tick = 0;
  for (size_t i = 1; i < readings.size(); ++i) {
    double gap = readings[i] - readings[i - 1];
    // Readings are floats of milliseconds: gaps under a nanosecond are their rounding.
    if (gap > 1e-9 && (tick == 0 || gap < tick)) tick = gap;
  }
  return tick;
}

std::string HipDevice::enqueue(Module& m, const Invocation& inv, hipStream_t stream) {
  if (const KernelLaunch* k = inv.kernel()) return enqueue_launch(m, k->args, k->config, stream);
  return enqueue_call(m, *inv.call(), stream);
}

HipDevice::Graph* HipDevice::graph_for(Module& m, std::span<const Invocation> batch,
                                       std::string* error) {
  std::string key = batch_key(batch);
  auto it = m.graphs.find(key);
  if (it != m.graphs.end()) return it->second.get();
  auto g = std::make_unique<Graph>();
  *error = KTA_HIP(graph_begin_capture(stream_));
  if (!error->empty()) return nullptr;
  for (size_t i = 0; i < batch.size() && error->empty(); ++i)
    *error = enqueue(m, batch[i], stream_);
  std::string end = KTA_HIP(graph_end_capture(stream_, &g->graph));
  if (error->empty()) *error = end;
  if (error->empty()) *error = KTA_HIP(graph_instantiate(&g->exec, g->graph));
  if (!error->empty()) {
    (void)hipGetLastError();
    return nullptr;
  }
  // The first replay uploads the graph: keep it out of every sample.
  *error = KTA_HIP(graph_launch(g->exec, stream_));
  if (error->empty()) *error = KTA_HIP(hipStreamSynchronize(stream_));
  if (!error->empty()) return nullptr;
  // Old batches' graphs (their buffers were freed) are not replayed again: keep a few.
  if (m.graphs.size() >= 64) m.graphs.clear();
  return (m.graphs[key] = std::move(g)).get();
}

// Read after the stop event completed: the management library's query stays out of the timed
// region. The clock a moment after the work is the one it ran at (the driver lowers clocks over
// milliseconds of idleness, not microseconds).
void HipDevice::record_clocks(TimedResult& t) {
  ClockSample c = clocks_->read();
  t.sm_clock_mhz = c.sm_mhz;
  t.mem_clock_mhz = c.mem_mhz;
}

TimedResult HipDevice::timed(std::span<const Invocation> batch, bool flush) {
  if (!lost_.empty()) return {failed(lost_), 0};
  if (batch.empty()) return {failed("empty batch"), 0};
  std::string error;
  bool launcher = batch.front().call() != nullptr;
  Module* m = find_module(batch.front().module, launcher, &error);
  if (m == nullptr) return {failed(error), 0};
  for (const Invocation& inv : batch)
    if (inv.module != batch.front().module || (inv.call() != nullptr) != launcher)
      return {failed("a batch runs one module"), 0};
  bind();
  return launcher ? timed_calls(*m, batch, flush) : timed_kernels(*m, batch, flush);
}

TimedResult HipDevice::timed_kernels(Module& m, std::span<const Invocation> batch, bool flush) {
  TimedResult t;
  std::string error;
  Graph* g = nullptr;
  if (batch.size() > 1) {
    g = graph_for(m, batch, &error);
    if (g == nullptr) {
      hipError_t e = hipStreamSynchronize(stream_);
      if (e != hipSuccess) return {device_error(e, "kernel '" + m.entry + "'"), 0};
      return {failed(error), 0};
    }
  }
  // The flush keeps the GPU busy while the host queues the sample; without one, a guard does.
  if (flush) {
    flush_l2();
  } else {
    enqueue_guard(stream_);
  }
  auto queued = std::chrono::steady_clock::now();
  KTA_HIP_REQUIRE(hipEventRecord(start_, stream_));
  error = g ? KTA_HIP(graph_launch(g->exec, stream_)) : enqueue(m, batch.front(), stream_);
  KTA_HIP_REQUIRE(hipEventRecord(stop_, stream_));
  note_enqueue(std::chrono::duration<double>(std::chrono::steady_clock::now() - queued).count());
  if (!error.empty()) {
    (void)hipStreamSynchronize(stream_);
    (void)hipGetLastError();
    return {failed(error), 0};
  }
  t.status = finish(stream_, "kernel '" + m.entry + "'");
  if (!t.status.ok) return t;
  float ms = 0;
  KTA_HIP_REQUIRE(hipEventElapsedTime(&ms, start_, stop_));
  t.seconds = double(ms) * 1e-3 / double(batch.size());
  record_clocks(t);
  return t;
}

TimedResult HipDevice::timed_calls(Module& m, std::span<const Invocation> batch, bool flush) {
  TimedResult t;
  std::string error;
  Graph* g = nullptr;
  if (batch.size() > 1) {
    // A launcher that cannot be captured (it allocates or synchronizes) is timed back to back.
    g = graph_for(m, batch, &error);
    if (g == nullptr && !lost_.empty()) return {failed(lost_), 0};
  }
  if (flush) flush_l2();
  // The events go on the legacy default stream, which waits for every blocking stream: work a
  // launcher hides on a stream of its own is inside the measurement.
  // That wait idles the GPU (the flush included): a guard covers the host's queueing.
  KTA_HIP_REQUIRE(hipStreamSynchronize(stream_));
  enqueue_guard(nullptr);
  auto queued = std::chrono::steady_clock::now();
  KTA_HIP_REQUIRE(hipEventRecord(start_, nullptr));
  error.clear();
  if (g != nullptr) {
    error = KTA_HIP(graph_launch(g->exec, stream_));
  } else {
    for (size_t i = 0; i < batch.size() && error.empty(); ++i)
      error = enqueue(m, batch[i], stream_);
  }
  KTA_HIP_REQUIRE(hipEventRecord(stop_, nullptr));
  note_enqueue(std::chrono::duration<double>(std::chrono::steady_clock::now() - queued).count());
  hipError_t e = hipDeviceSynchronize();
  if (e != hipSuccess) return {device_error(e, "launcher '" + m.entry + "'"), 0};
  if (!error.empty()) return {failed(error), 0};
  float ms = 0;
  KTA_HIP_REQUIRE(hipEventElapsedTime(&ms, start_, stop_));
  t.seconds = double(ms) * 1e-3 / double(batch.size());
  record_clocks(t);
  return t;
}

}  // namespace kta::engine::hip
