#include "engine/execute/executor.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "engine/execute/job_runner.h"

namespace kta::engine {

std::string device_key_name(DeviceKey key) {
  std::string name = device_role_name(key.role);
  return key.flavor == DeviceFlavor::python ? name + "-python" : name;
}

std::vector<TaskOutcome> execute(const Plan& plan, ResultStore& store,
                                 const ExecuteOptions& options) {
  if (!options.make_device) throw std::invalid_argument("execute: no device factory");
  std::vector<TaskOutcome> outcomes(plan.jobs.size());
  SharedStore shared{store, {}};
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next++; i < plan.jobs.size(); i = next++) {
      JobRunner runner(plan, plan.jobs[i], shared, options);
      outcomes[i] = runner.run();
    }
  };
  int n = std::clamp<int>(options.jobs, 1, static_cast<int>(std::max<size_t>(plan.jobs.size(), 1)));
  if (n == 1) {
    worker();
  } else {
    std::vector<std::thread> threads;
    for (int t = 0; t < n; ++t) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
  }
  if (options.progress) options.progress->done();
  return outcomes;
}

}  // namespace kta::engine
