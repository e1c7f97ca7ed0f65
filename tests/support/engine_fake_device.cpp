#include "tests/support/engine_fake_device.h"

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace kta::test {

using namespace kta::engine;

FakeDevice::FakeDevice(std::shared_ptr<FakeRegistry> registry) : registry_(std::move(registry)) {
  std::lock_guard lock(registry_->mu);
  ++registry_->devices_made;
  noise_seed_ = registry_->noise_seed * 7919 + uint64_t(registry_->devices_made);
  std::mt19937_64 g(noise_seed_);
  if (registry_->worker_noise > 0)
    worker_factor_ = std::exp(registry_->worker_noise * std::normal_distribution<>()(g));
}

FakeDevice::~FakeDevice() {
  std::lock_guard lock(registry_->mu);
  registry_->buffers_at_destruction.push_back(buffers_.size());
}

DeviceInfo FakeDevice::info() const {
  DeviceInfo i;
  i.name = "fake";
  i.peak_bandwidth = registry_->peak_bandwidth;
  i.cache_bandwidth = registry_->cache_bandwidth;
  i.l2_bytes = registry_->l2_bytes;
  i.peak_flops = registry_->peak_flops;
  return i;
}

std::vector<std::byte>& FakeDevice::mem(Buffer b) {
  auto it = buffers_.find(b.id);
  if (it == buffers_.end()) throw std::runtime_error("fake device: unknown buffer");
  return it->second;
}

Buffer FakeDevice::alloc(size_t bytes) {
  uint64_t id = next_++;
  buffers_[id].assign(bytes, std::byte{0xAB});
  return {id, bytes};
}

void FakeDevice::free(Buffer b) { buffers_.erase(b.id); }

void FakeDevice::upload(Buffer dst, const void* src, size_t bytes) {
  auto& m = mem(dst);
  if (bytes > m.size()) throw std::runtime_error("fake device: upload past the end");
  std::memcpy(m.data(), src, bytes);
}

void FakeDevice::download(void* dst, Buffer src, size_t bytes) {
  auto& m = mem(src);
  {
    std::lock_guard lock(registry_->mu);
    registry_->events.push_back({"", {{this, src.id}}});
  }
  if (bytes > m.size()) throw std::runtime_error("fake device: download past the end");
  std::memcpy(dst, m.data(), bytes);
}

void FakeDevice::fill(Buffer dst, uint8_t byte) {
  auto& m = mem(dst);
  std::memset(m.data(), byte, m.size());
}

void FakeDevice::copy(std::span<const BufferCopy> copies) {
  for (const BufferCopy& c : copies) {
    auto& d = mem(c.dst);
    auto& s = mem(c.src);
    check_copy(c, d.size(), s.size());
    std::memmove(d.data() + c.dst_offset, s.data() + c.src_offset, c.bytes);
  }
  std::lock_guard lock(registry_->mu);
  registry_->copies += copies.size();
}

CompileResult FakeDevice::compile(const CompileRequest& request) {
  CompileResult r;
  {
    std::lock_guard lock(registry_->mu);
    ++registry_->compiles;
  }
  std::ifstream in(request.source);
  if (!in) {
    r.error = "cannot read " + request.source.string();
    return r;
  }
  std::string line, name;
  while (std::getline(in, line)) {
    auto at = line.find("fake: ");
    if (at != std::string::npos) name = line.substr(at + 6);
  }
  if (name == "compile-error") {
    r.error = "compile error";
    r.log =
        request.source.filename().string() + ":3:7: error: use of undeclared identifier 'oops'\n";
    return r;
  }
  if (!registry_->kernels.count(name)) {
    r.error = "compile error";
    r.log = request.source.filename().string() + ":1:1: error: no fake kernel '" + name + "'\n";
    return r;
  }
  r.ok = true;
  r.module = next_++;
  modules_[r.module] = name;
  return r;
}

LaunchResult FakeDevice::run(const Invocation& invocation) {
  if (const KernelLaunch* k = invocation.kernel()) return launch_kernel(invocation.module, k->args);
  return {false, "the fake device has no launcher mode"};
}

LaunchResult FakeDevice::launch_kernel(uint64_t module, const std::vector<KernelArg>& args,
                                       int timed_batch, int batch_index) {
  auto it = modules_.find(module);
  if (it == modules_.end()) return {false, "unknown module"};
  FakeLaunch l;
  l.args = &args;
  l.timed_batch = timed_batch;
  l.batch_index = batch_index;
  for (const auto& a : args) {
    l.ptrs.push_back(a.type == ArgType::ptr ? static_cast<void*>(mem(a.buffer).data()) : nullptr);
  }
  l.call_index = calls_[module]++;
  {
    std::lock_guard lock(registry_->mu);
    ++registry_->launches[it->second];
  }
  std::string err = registry_->kernels.at(it->second).run(l);
  if (!err.empty()) return {false, err};
  return {};
}

TimedResult FakeDevice::timed(std::span<const Invocation> batch, bool) {
  TimedResult t;
  if (batch.empty()) return TimedResult{{false, "empty batch"}, 0};
  std::vector<FakeRegistry::BufferRef> outputs;
  for (size_t i = 0; i < batch.size(); ++i) {
    const KernelLaunch* k = batch[i].kernel();
    if (k == nullptr) return TimedResult{{false, "the fake device has no launcher mode"}, 0};
    if (k->args.size() > 2) outputs.push_back({this, k->args[2].buffer.id});
    t.status = launch_kernel(batch[i].module, k->args, int(batch.size()), int(i));
    if (!t.status.ok) return t;
  }
  {
    std::lock_guard lock(registry_->mu);
    registry_->events.push_back({modules_.at(batch.front().module), std::move(outputs)});
  }
  uint64_t module = batch.front().module;
  const auto& k = registry_->kernels.at(modules_.at(module));
  double seconds = k.seconds;
  if (const KernelLaunch* kl = batch.front().kernel(); k.seconds_at && kl && kl->args.size() > 3)
    seconds = k.seconds_at(kl->args[3].scalar.i);
  // A tiny deterministic wobble so noise statistics are not degenerate.
  t.seconds = time_factor * seconds * (1.0 + 0.001 * static_cast<double>(calls_[module] % 3));
  if (k.jitter > 0) t.seconds *= (samples_[module]++ % 2) ? 1 + k.jitter : 1 - k.jitter;
  t.seconds *= worker_factor_;
  if (registry_->sample_noise > 0) {
    // Drawn from the module and its sample count, not from this device's sequence of samples:
    // the protocol draws the order of a round's sides, and two modules sharing a device (the
    // candidate and the calibration's baseline) must not trade draws with it.
    std::seed_seq seq{noise_seed_, module, noise_samples_[module]++};
    std::mt19937_64 g(seq);
    t.seconds *= std::exp(registry_->sample_noise * std::normal_distribution<>()(g));
  }
  // Clocks wobble too (every third sample 10 MHz lower), so min, median and max differ.
  if (k.sm_clock_mhz > 0) t.sm_clock_mhz = k.sm_clock_mhz - (calls_[module] % 3 == 2 ? 10 : 0);
  t.mem_clock_mhz = k.mem_clock_mhz;
  return t;
}

}  // namespace kta::test
