// Plan execution: every job's steps in order, jobs in parallel (--jobs), each finished step
// recorded in the results store in its own transaction, finished steps recognized by key and
// not run again (--resume). A failed gate or skipped step is an outcome with a reason; the run
// always goes on to the next step and the next job.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/agents/agent_run.h"
#include "engine/device/device.h"
#include "engine/plan/plan.h"
#include "engine/report/progress.h"
#include "engine/results/store.h"
#include "engine/results/task_outcome.h"

namespace kta::engine {

// Which process serves a role's entries: its worker for HIP entries, its python runner
// (engine/device/python) for Python entries (torch, triton), on the same device spec.
enum class DeviceFlavor { native, python };

// The device one job asks for: a role (trusted: reference and baseline; candidate) and a flavor.
// The candidate never shares a process with the reference, so reference outputs never reach it.
struct DeviceKey {
  DeviceRole role = DeviceRole::trusted;
  DeviceFlavor flavor = DeviceFlavor::native;
  auto operator<=>(const DeviceKey&) const = default;
};
// "trusted", "candidate", "trusted-python", "candidate-python" (messages).
std::string device_key_name(DeviceKey key);

// Makes a device for one key of one job.
using DeviceFactory = std::function<std::unique_ptr<Device>(DeviceKey key)>;

// What the audit hook concludes for one candidate.
struct AuditVerdict {
  bool ran = false;
  int findings = 0;
  bool gate_failed = false;  // the task's `audit_fail_on` level was reached
  std::string summary;       // one line, e.g. "2 warnings (kta-shape-literal)"
  Json details;              // the findings, for the results store
  // The first parse error of the files ("k.hip:12:5: use of undeclared identifier 'x'"); set
  // when some file did not parse, whatever its partial findings.
  std::string parse_error;
};
using AuditHook = std::function<AuditVerdict(const TaskJob& job,
                                             const std::vector<std::filesystem::path>& files)>;

struct ExecuteOptions {
  int jobs = 1;
  DeviceFactory make_device;
  AuditHook audit;                  // empty: the audit step records "analyzer not built"
  std::filesystem::path cache_dir;  // kta's cache (Settings::cache_dir); empty disables it
  // What command agents get from the environment's settings; each job fills in its run folder,
  // device, sandbox and network (engine/execute/step_prepare.cpp).
  AgentRunOptions agents;
  Progress* progress = nullptr;  // null: silent
};

// Runs the plan; returns one outcome per job in plan order. The store must be open on the
// plan's output folder.
std::vector<TaskOutcome> execute(const Plan& plan, ResultStore& store,
                                 const ExecuteOptions& options);

}  // namespace kta::engine
