// Engine overhead per task-shape on a device (cpu by default, or hip on a GPU), for a small
// kernel: the wall time of a whole evaluation minus the time spent inside compiles and kernel
// launches, divided by the
// shape points evaluated (visible + held-out). Every Device call is timed from the engine side
// by a decorator, so "inside kernels" includes the worker round trip of each launch and, for
// timed launches, the device's cold-cache flush before each sample (kernel_s shows the part the
// device's own timer attributes to the kernel).
//   bench_engine_overhead [TASK.kta] [runs] [cpu|hip]
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <mutex>

#include "engine/device/remote/device_settings.h"
#include "engine/execute/executor.h"
#include "engine/execute/reference_cache.h"
#include "engine/plan/compile.h"
#include "lang/load.h"

namespace {

using namespace kta;
using Clock = std::chrono::steady_clock;

struct Totals {
  std::mutex mu;
  double compile = 0, launch = 0, timed_wall = 0, timed_kernel = 0, start = 0;
  long launches = 0, timed = 0;
};

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Forwards to a real device and charges each call's wall time to a bucket.
class TimingDevice : public engine::Device {
 public:
  TimingDevice(std::unique_ptr<engine::Device> d, Totals& t) : d_(std::move(d)), t_(t) {}
  engine::DeviceInfo info() const override { return d_->info(); }
  engine::Buffer alloc(size_t b) override { return d_->alloc(b); }
  void free(engine::Buffer b) override { d_->free(b); }
  void upload(engine::Buffer dst, const void* s, size_t b) override { d_->upload(dst, s, b); }
  void download(void* dst, engine::Buffer s, size_t b) override { d_->download(dst, s, b); }
  void fill(engine::Buffer dst, uint8_t v) override { d_->fill(dst, v); }
  void copy(std::span<const engine::BufferCopy> c) override { d_->copy(c); }
  void together(const std::function<void()>& f) override { d_->together(f); }
  engine::CompileResult compile(const engine::CompileRequest& r) override {
    auto t0 = Clock::now();
    auto res = d_->compile(r);
    add(t_.compile, since(t0));
    return res;
  }
  engine::LaunchResult run(const engine::Invocation& inv) override {
    auto t0 = Clock::now();
    auto res = d_->run(inv);
    add(t_.launch, since(t0), &t_.launches);
    return res;
  }
  engine::TimedResult timed(std::span<const engine::Invocation> batch, bool f) override {
    auto t0 = Clock::now();
    auto res = d_->timed(batch, f);
    add(t_.timed_wall, since(t0), &t_.timed, res.seconds * static_cast<double>(batch.size()));
    return res;
  }
  void synchronize() override { d_->synchronize(); }

 private:
  void add(double& bucket, double s, long* count = nullptr, double kernel = 0) {
    std::lock_guard lock(t_.mu);
    bucket += s;
    if (count) ++*count;
    t_.timed_kernel += kernel;
  }
  std::unique_ptr<engine::Device> d_;
  Totals& t_;
};

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path task = argc > 1 ? argv[1] : KTA_BENCH_TASK;
  int runs = argc > 2 ? std::atoi(argv[2]) : 3;
  std::string device = argc > 3 ? engine::resolve_device_spec(argv[3]) : "cpu";
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  auto loaded = lang::load_file(task, diags);
  if (!loaded || loaded->tasks.empty()) {
    diags.print(std::cerr);
    return 1;
  }
  auto out = std::filesystem::temp_directory_path() / "kta-bench-engine";
  model::Plan source = engine::plan_for_task(loaded->tasks.front(), out);
  engine::PlanOptions po;
  po.device = device;
  po.quick = true;
  po.secret = "bench";
  std::printf("task %s, device %s, %d runs after one warm-up (compile cache warm)\n",
              task.filename().c_str(), device.c_str(), runs);
  std::printf("%4s %7s %6s %9s %10s %9s %8s %9s %9s %15s %9s\n", "run", "shapes", "steps",
              "total_s", "compile_s", "launch_s", "timed_n", "timed_s", "kernel_s",
              "overhead_ms/shape", "workers_s");
  // The devices as `kta eval` opens them, configured by this environment.
  const engine::DeviceOptions options =
      engine::device_options(engine::settings_from(engine::process_environment()));
  for (int run = 0; run <= runs; ++run) {
    std::filesystem::remove_all(out);
    engine::Plan plan = engine::compile_plan(source, po);
    Totals totals;
    auto store = engine::ResultStore::open(out);
    engine::ExecuteOptions eo;
    // A fresh reference cache each run: the reference launches count as kernel time.
    eo.cache_dir = out / "cache";
    eo.make_device = [&totals, &device,
                      &options](engine::DeviceKey) -> std::unique_ptr<engine::Device> {
      auto t0 = Clock::now();
      auto d = engine::make_isolated_device(device, options);
      d->info();  // the worker is up
      totals.start += since(t0);
      return std::make_unique<TimingDevice>(std::move(d), totals);
    };
    auto t0 = Clock::now();
    auto outcomes = engine::execute(plan, *store, eo);
    double total = since(t0);
    size_t shapes = 0, steps = 0;
    for (const auto& j : plan.jobs) {
      shapes += j.visible.size() + j.heldout.size();
      steps += j.steps.size();
    }
    double inside = totals.compile + totals.launch + totals.timed_wall;
    double overhead = (total - inside) / static_cast<double>(shapes) * 1e3;
    if (run == 0) continue;  // warm-up: fills the compile cache
    std::printf("%4d %7zu %6zu %9.3f %10.3f %9.3f %8ld %9.3f %9.6f %15.1f %9.3f\n", run, shapes,
                steps, total, totals.compile, totals.launch, totals.timed, totals.timed_wall,
                totals.timed_kernel, overhead, totals.start);
    if (!outcomes.front().correct)
      std::printf("  (candidate not correct: %s)\n", outcomes.front().failure_reason.c_str());
  }
  std::filesystem::remove_all(out);
  return 0;
}
