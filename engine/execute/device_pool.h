// Devices shared by the jobs of one run. Opening a device costs a worker process and, on a GPU,
// a context (0.2-0.3 s on an H200): paid per job, that dominated the wall time of small tasks.
//  - trusted devices (reference and baseline: the task's own code) are kept open and handed to
//    the next job; one that saw a crash, a lost context or an exception is closed instead.
//  - candidate devices are never reused (a candidate could leave threads or state behind), but
//    the next one is started in the background while the current job runs, so a job finds its
//    candidate worker ready.
// Python runner devices pass through to the factory unchanged.
#pragma once

#include <memory>

#include "engine/execute/executor.h"

namespace kta::engine {

class DevicePool {
 public:
  // `candidates_expected`: how many candidate devices the run will ask for (its job count); no
  // more are started ahead of time. 0 turns starting ahead off.
  DevicePool(DeviceFactory make, int candidates_expected);
  ~DevicePool();
  DevicePool(const DevicePool&) = delete;
  DevicePool& operator=(const DevicePool&) = delete;

  // A factory for ExecuteOptions::make_device; valid while the pool lives.
  DeviceFactory factory();

  // Starts the first trusted device and the first candidate device now, side by side, so that
  // their worker start-up (a GPU context: ~0.25 s on an H200) overlaps whatever the run does
  // before its first job asks for them. Call at most once, before any job runs.
  void prestart();

  // Devices the underlying factory made so far, per key (benchmarks and tests).
  int opened(DeviceKey key) const;

  struct State;

 private:
  std::shared_ptr<State> state_;
};

}  // namespace kta::engine
