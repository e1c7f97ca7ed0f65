// Measurement on the hip device: events around the timed work on the device's stream; a cold
// sample first writes a buffer several times the L2 so the kernel starts from DRAM; a batch sample
// (repeat > 1) replays a graph of `repeat` captured launches, which removes launch gaps for
// microsecond-scale kernels (back-to-back event loops would time the launch overhead).
#include <algorithm>
#include <chrono>
#include <cstring>

#include "engine/device/hip/plugin/hip_check.h"
#include "engine/device/hip/plugin/hip_module.h"
#include "engine/device/hip/rtc/hiprtc_compiler.h"

namespace kta::engine::hip {
namespace {

std::string args_key(const std::vector<KernelArg>& args, const LaunchConfig& c, int repeat) {
  std::string k = std::to_string(repeat) + "|" + std::to_string(c.grid.x) + "," +
                  std::to_string(c.grid.y) + "," + std::to_string(c.grid.z) + "|" +
                  std::to_string(c.block.x) + "," + std::to_string(c.block.y) + "," +
                  std::to_string(c.block.z) + "|" + std::to_string(c.shared_bytes);
  for (const KernelArg& a : args)
    k += "|" + std::to_string(int(a.type)) + ":" + std::to_string(a.buffer.id) + ":" +
         std::to_string(a.scalar.u);
  return k;
}

std::string call_key(const LauncherArgs& args, int repeat) {
  std::string k = "call|" + std::to_string(repeat);
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

HipDevice::Graph* HipDevice::graph_for(Module& m, const std::string& key, int repeat,
                                       const std::vector<KernelArg>* kargs,
                                       const LaunchConfig* config, const LauncherArgs* largs,
                                       std::string* error) {
  auto it = m.graphs.find(key);
  if (it != m.graphs.end()) return it->second.get();
  auto g = std::make_unique<Graph>();
  *error = KTA_HIP(graph_begin_capture(stream_));
  if (!error->empty()) return nullptr;
  for (int i = 0; i < repeat && error->empty(); ++i)
    *error = kargs ? enqueue_launch(m, *kargs, *config, stream_) : enqueue_call(m, *largs, stream_);
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

TimedResult HipDevice::timed_launch(uint64_t module, const std::vector<KernelArg>& args,
                                    const LaunchConfig& config, bool flush, int repeat) {
  TimedResult t;
  if (!lost_.empty()) return {failed(lost_), 0};
  std::string error;
  Module* m = find_module(module, false, &error);
  if (m == nullptr) return {failed(error), 0};
  bind();
  repeat = std::max(repeat, 1);
  Graph* g = nullptr;
  if (repeat > 1) {
    g = graph_for(*m, args_key(args, config, repeat), repeat, &args, &config, nullptr, &error);
    if (g == nullptr) {
      hipError_t e = hipStreamSynchronize(stream_);
      if (e != hipSuccess) return {device_error(e, "kernel '" + m->entry + "'"), 0};
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
  error = g ? KTA_HIP(graph_launch(g->exec, stream_)) : enqueue_launch(*m, args, config, stream_);
  KTA_HIP_REQUIRE(hipEventRecord(stop_, stream_));
  note_enqueue(std::chrono::duration<double>(std::chrono::steady_clock::now() - queued).count());
  if (!error.empty()) {
    (void)hipStreamSynchronize(stream_);
    (void)hipGetLastError();
    return {failed(error), 0};
  }
  t.status = finish(stream_, "kernel '" + m->entry + "'");
  if (!t.status.ok) return t;
  float ms = 0;
  KTA_HIP_REQUIRE(hipEventElapsedTime(&ms, start_, stop_));
  t.seconds = double(ms) * 1e-3 / repeat;
  record_clocks(t);
  return t;
}

TimedResult HipDevice::timed_call(uint64_t module, const LauncherArgs& args, bool flush,
                                  int repeat) {
  TimedResult t;
  if (!lost_.empty()) return {failed(lost_), 0};
  std::string error;
  Module* m = find_module(module, true, &error);
  if (m == nullptr) return {failed(error), 0};
  bind();
  repeat = std::max(repeat, 1);
  Graph* g = nullptr;
  if (repeat > 1) {
    // A launcher that cannot be captured (it allocates or synchronizes) is timed back to back.
    g = graph_for(*m, call_key(args, repeat), repeat, nullptr, nullptr, &args, &error);
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
    for (int i = 0; i < repeat && error.empty(); ++i) error = enqueue_call(*m, args, stream_);
  }
  KTA_HIP_REQUIRE(hipEventRecord(stop_, nullptr));
  note_enqueue(std::chrono::duration<double>(std::chrono::steady_clock::now() - queued).count());
  hipError_t e = hipDeviceSynchronize();
  if (e != hipSuccess) return {device_error(e, "launcher '" + m->entry + "'"), 0};
  if (!error.empty()) return {failed(error), 0};
  float ms = 0;
  KTA_HIP_REQUIRE(hipEventElapsedTime(&ms, start_, stop_));
  t.seconds = double(ms) * 1e-3 / repeat;
  record_clocks(t);
  return t;
}

}  // namespace kta::engine::hip
