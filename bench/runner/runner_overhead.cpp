// Python runner overhead (see RESULTS.md):
//  1. start-up: a fresh runner's first request (interpreter, `import torch`, device set-up);
//  2. round trip per call with a no-op function (call and timed sample), engine wall time next to
//     the time the runner itself measured, so the difference is the protocol's cost;
//  3. per task-shape: the engine's DeviceSet flow for one point and seed (alloc, upload inputs,
//     poison outputs, call, download outputs, free) on the scale_gelu torch reference;
//  4. start-up per run: N tasks through a RunnerPool (one runner for the run) against a fresh
//     runner per task.
// Usage: bench_runner_overhead [calls] [tasks] [device: cpu | hip:N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "engine/device/python/find_python.h"
#include "engine/device/python/python_device.h"
#include "engine/execute/bindings.h"
#include "engine/plan/plan.h"
#include "lang/load.h"

using namespace kta;
using namespace kta::engine;
using Clock = std::chrono::steady_clock;

namespace {

DeviceSpec g_device;

RunnerOptions bench_runner_options() {
  RunnerOptions o = runner_options(settings_from(process_environment()));
  o.device = g_device;
  return o;
}

DeviceOptions device_options() {
  DeviceOptions o;
  o.device = g_device;
  return o;
}

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

CompileRequest fixture(const std::string& symbol) {
  CompileRequest r;
  r.source = std::string(KTA_BENCH_FIXTURES) + "/fake.py";
  r.entry = symbol;
  r.flavor = "torch";
  r.mode = "function";
  return r;
}

void round_trips(int calls) {
  PythonDevice d(std::make_shared<RunnerProcess>(bench_runner_options()), device_options());
  auto t0 = Clock::now();
  CompileResult c = d.compile(fixture("noop"));
  double first = since(t0);
  if (!c.ok) {
    std::printf("compile failed: %s\n", c.error.c_str());
    std::exit(1);
  }
  std::printf("start-up + import of the fixture module: %.3f s (runner start-up %.3f s)\n", first,
              d.runner().stats().start_seconds);
  Buffer x = d.alloc(4 * 16), y = d.alloc(4 * 16);
  LauncherArgs a;
  a.tensors = {{"x", x, KTA_F32, {16}, 0}, {"y", y, KTA_F32, {16}, 1}};
  std::vector<double> call_s, timed_wall, timed_inner;
  for (int i = 0; i < calls; ++i) {
    auto t = Clock::now();
    if (!d.call(c.module, a).ok) std::exit(1);
    call_s.push_back(since(t));
  }
  for (int i = 0; i < calls; ++i) {
    auto t = Clock::now();
    TimedResult r = d.timed_call(c.module, a, false, 1);
    timed_wall.push_back(since(t));
    timed_inner.push_back(r.seconds);
  }
  std::printf("no-op call round trip      median %8.1f us  (%d calls)\n", 1e6 * median(call_s),
              calls);
  std::printf("no-op timed sample, wall   median %8.1f us\n", 1e6 * median(timed_wall));
  std::printf("no-op timed sample, inner  median %8.1f us  (what the runner's clock measured)\n",
              1e6 * median(timed_inner));
  d.free(x);
  d.free(y);
}

void task_shape(int reps) {
  lang::SourceManager sm;
  lang::DiagnosticEngine diags(sm);
  auto loaded = lang::load_file(KTA_BENCH_TASK, diags);
  if (!loaded || loaded->tasks.empty()) {
    std::printf("%s", diags.str().c_str());
    std::exit(1);
  }
  const model::Task& task = loaded->tasks[0];
  PythonDevice d(std::make_shared<RunnerProcess>(bench_runner_options()), device_options());
  CompileRequest r;
  r.source = task.reference.file;
  r.entry = task.reference.symbol;
  r.flavor = "torch";
  r.mode = "module";
  CompileResult c = d.compile(r);
  if (!c.ok) std::exit(1);
  Impl ref{ImplRole::reference, &d, c.module, task.reference};
  for (const auto& point : task.visible) {
    PointSpec spec = make_point_spec(task, point);
    HostSet in = make_inputs(task, spec, 0);
    std::vector<double> wall;
    for (int i = 0; i < reps; ++i) {
      auto t = Clock::now();
      DeviceSet set(d, task, spec);
      set.upload_inputs(in);
      set.poison_outputs(uint64_t(i));
      if (!set.launch(ref).ok) std::exit(1);
      HostSet out = set.download_outputs();
      wall.push_back(since(t));
    }
    std::printf("task-shape %-12s alloc+upload+poison+call+download+free  median %8.1f us\n",
                format_point(point).c_str(), 1e6 * median(wall));
  }
}

void startup_per_run(int tasks) {
  auto run = [&](bool pooled) {
    RunnerPool pool{bench_runner_options()};
    int starts = 0;
    double seconds = 0;
    for (int t = 0; t < tasks; ++t) {
      std::unique_ptr<Device> d;
      std::shared_ptr<RunnerProcess> own;
      if (pooled) {
        d = pool.device(DeviceRole::trusted, device_options());
      } else {
        own = std::make_shared<RunnerProcess>(bench_runner_options());
        d = std::make_unique<PythonDevice>(own, device_options());
      }
      CompileResult c = d->compile(fixture("identity"));
      if (!c.ok) std::exit(1);
      if (own) {
        starts += own->stats().starts;
        seconds += own->stats().start_seconds;
      }
    }
    if (pooled) {
      starts = pool.stats().starts;
      seconds = pool.stats().start_seconds;
    }
    std::printf("%d tasks, %-22s runner starts %2d, start-up total %6.2f s\n", tasks,
                pooled ? "one runner per run:" : "one runner per task:", starts, seconds);
  };
  run(true);
  run(false);
}

}  // namespace

int main(int argc, char** argv) {
  int calls = argc > 1 ? std::atoi(argv[1]) : 1000;
  int tasks = argc > 2 ? std::atoi(argv[2]) : 5;
  if (argc > 3) g_device = resolve_device(argv[3]);
  PythonChoice py = find_python(bench_runner_options().search);
  if (py.path.empty()) {
    std::printf("%s\n", py.error.c_str());
    return 1;
  }
  std::printf("python: %s, device %s\n", py.path.c_str(), device_spec_name(g_device).c_str());
  round_trips(calls);
  task_shape(std::max(10, calls / 10));
  startup_per_run(tasks);
  return 0;
}
