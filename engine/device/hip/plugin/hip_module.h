// The hip device's loaded modules and captured graphs (private to the plugin).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/device/hip/plugin/hip_device.h"
#include "engine/device/hip/plugin/hip_graph.h"

namespace kta::engine::hip {

// `repeat` launches of one kernel or launcher with fixed arguments, captured once and replayed
// for batch samples.
struct HipDevice::Graph {
  hipGraph_t graph = nullptr;
  hipGraphExec_t exec = nullptr;
  ~Graph() {
    if (exec != nullptr) (void)graph_exec_destroy(exec);
    if (graph != nullptr) (void)graph_destroy(graph);
  }
};

struct HipDevice::Module {
  bool launcher = false;
  std::string entry;
  // kernel mode
  hipModule_t module = nullptr;
  hipFunction_t function = nullptr;
  std::vector<uint16_t> params;  // the kernel's parameter type codes (rtc/kernel_signature.h)
  size_t shared_opt_in = 0;      // dynamic shared memory the kernel was allowed so far
  // launcher mode; the library stays loaded: its runtime state may outlive the module
  void* handle = nullptr;
  int (*call)(const kta_call*) = nullptr;
  std::map<std::string, std::unique_ptr<Graph>> graphs;  // by arguments and repeat count

  ~Module() {
    graphs.clear();
    if (module != nullptr) (void)hipModuleUnload(module);
  }
};

}  // namespace kta::engine::hip
