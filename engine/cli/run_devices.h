// The devices of one kta run, shared by `kta eval` and `kta validate`: isolated workers for HIP
// entries (trusted ones kept open across jobs, candidate ones started ahead; DevicePool) and one
// python runner per role for torch and Triton entries.
#pragma once

#include <atomic>
#include <memory>
#include <string>

#include "engine/device/python/python_device.h"
#include "engine/device/remote/device_settings.h"
#include "engine/execute/device_pool.h"
#include "engine/settings/settings.h"

namespace kta::cli {

class RunDevices {
 public:
  // `spec`: the resolved device spec ("cpu", "hip:0"); `candidates_expected` as in DevicePool.
  RunDevices(const engine::Settings& settings, std::string spec, engine::DeviceOptions options,
             int candidates_expected);

  engine::DeviceFactory factory() { return pool_.factory(); }
  void prestart() { pool_.prestart(); }
  // The warp size of the last native device opened (0: none yet).
  int seen_warp() const { return seen_warp_->load(); }
  engine::RunnerStats runner_stats() const { return runners_.stats(); }

 private:
  engine::RunnerPool runners_;
  std::shared_ptr<std::atomic<int>> seen_warp_ = std::make_shared<std::atomic<int>>(0);
  engine::DevicePool pool_;
};

// What command agents get from the environment's settings; the job fills in the rest.
engine::AgentRunOptions agent_defaults(const engine::Settings& s);

}  // namespace kta::cli
