// A fake Device for executor tests: "kernels" are small C++ functions registered by name, and a
// source file selects one with a line `fake: NAME` (or `fake: compile-error`). Timing is
// scripted (each kernel declares its cost), so performance tests are exact and instant.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "engine/device/device.h"

namespace kta::test {

// What a fake kernel sees: host pointers for buffer arguments, the arguments themselves, and
// how many times this module has been launched before (for correct-then-corrupt scripts).
struct FakeLaunch {
  std::vector<void*> ptrs;  // per argument; null for scalars
  const std::vector<engine::KernelArg>* args = nullptr;
  uint64_t call_index = 0;
  int timed_batch = 0;   // launched by timed(): the batch's size (0: by run())
  int batch_index = -1;  // its place in that batch
  int64_t scalar(size_t i) const { return (*args)[i].scalar.i; }
  template <typename T>
  T* ptr(size_t i) const {
    return static_cast<T*>(ptrs[i]);
  }
};

struct FakeKernel {
  // Returns "" on success, else the launch error ("worker killed by signal 11 (SIGSEGV)").
  std::function<std::string(const FakeLaunch&)> run;
  double seconds = 1e-3;    // what timed_launch reports per launch
  double sm_clock_mhz = 0;  // what timed_launch reports as clocks (0: not readable, as on cpu)
  double mem_clock_mhz = 0;
  // Set: seconds per launch at size n (the kernel's 4th argument) instead of `seconds`.
  std::function<double(int64_t n)> seconds_at;
  // Samples alternate between (1 - jitter) and (1 + jitter) times the time: a noisy kernel.
  double jitter = 0;
};

// Shared by every FakeDevice a test makes; counts what happened.
struct FakeRegistry {
  std::map<std::string, FakeKernel> kernels;
  std::mutex mu;
  int devices_made = 0;
  int compiles = 0;
  size_t copies = 0;  // Device::copy operations (timed rounds' rotated inputs and poison)
  std::map<std::string, int> launches;  // kernel name -> launches (timed included)
  // What info() reports: the physics floor's ceilings (0: unknown, no floor of that kind).
  double peak_bandwidth = 0;   // bytes/s from DRAM
  double cache_bandwidth = 0;  // bytes/s for a working set that fits 4x l2_bytes
  size_t l2_bytes = 0;
  double peak_flops = 0;  // flop/s
  // Seeded timing noise, as a busy machine makes it (0: none): each device made runs everything
  // exp(N(0, worker_noise)) times slower (two workers running the same code differently), and
  // each timed sample reads exp(N(0, sample_noise)) times its time. The draws come from
  // noise_seed, the order the device was made in, the module and its sample count, so a test is
  // repeatable whatever order the protocol draws for its rounds.
  double worker_noise = 0;
  double sample_noise = 0;
  uint64_t noise_seed = 1;
  // What the protocol did with the buffers, in order: every timed batch's output buffers (the
  // kernel's third argument) in launch order, and every buffer downloaded, each with the device
  // it belongs to (buffer ids are per device).
  struct BufferRef {
    const void* device;
    uint64_t id;
    bool operator==(const BufferRef&) const = default;
  };
  struct Event {
    std::string kernel;              // a timed batch of this kernel; empty: a download
    std::vector<BufferRef> buffers;  // the batch's outputs in launch order, or the one downloaded
  };
  std::vector<Event> events;
  // Per device destroyed, the buffers it still held: a buffer freed after its device was gone
  // would be a use after free.
  std::vector<size_t> buffers_at_destruction;
};

class FakeDevice : public engine::Device {
 public:
  explicit FakeDevice(std::shared_ptr<FakeRegistry> registry);
  ~FakeDevice() override;
  engine::DeviceInfo info() const override;
  engine::Buffer alloc(size_t bytes) override;
  void free(engine::Buffer b) override;
  void upload(engine::Buffer dst, const void* src, size_t bytes) override;
  void download(void* dst, engine::Buffer src, size_t bytes) override;
  void fill(engine::Buffer dst, uint8_t byte) override;
  void copy(std::span<const engine::BufferCopy> copies) override;
  engine::CompileResult compile(const engine::CompileRequest& request) override;
  engine::LaunchResult run(const engine::Invocation& invocation) override;
  // Runs every launch of the batch; reports the kernel's scripted seconds per launch.
  engine::TimedResult timed(std::span<const engine::Invocation> batch, bool flush) override;
  void synchronize() override {}
  // Every timed sample of this device reads this many times the kernel's scripted time: a worker
  // that runs the same code slower than another.
  double time_factor = 1;

 private:
  std::vector<std::byte>& mem(engine::Buffer b);
  engine::LaunchResult launch_kernel(uint64_t module, const std::vector<engine::KernelArg>& args,
                                     int timed_batch = 0, int batch_index = -1);
  std::shared_ptr<FakeRegistry> registry_;
  std::map<uint64_t, std::vector<std::byte>> buffers_;
  std::map<uint64_t, std::string> modules_;
  std::map<uint64_t, uint64_t> calls_;
  std::map<uint64_t, uint64_t> samples_;  // timed samples per module
  uint64_t next_ = 1;
  uint64_t noise_seed_ = 0;                     // this device's draws of the timing noise
  std::map<uint64_t, uint64_t> noise_samples_;  // noisy samples per module
  double worker_factor_ = 1;
};

}  // namespace kta::test
