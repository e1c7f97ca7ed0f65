// Binding a task to a device at one shape point: tensor shapes and scalar values evaluated from
// the model, host inputs drawn by the engine, device buffers, kernel arguments and launcher
// arguments. Everything an implementation receives is built here, from the task alone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/device/device.h"
#include "engine/inputs/host_tensor.h"
#include "lang/model.h"

namespace kta::engine {

// The task's implementations: the reference judges outputs, the baseline sets the time to beat,
// the candidate is what is judged.
enum class ImplRole { reference, baseline, candidate };
const char* impl_role_name(ImplRole role);  // "reference", "baseline", "candidate"
// The candidate runs on a device of its own; the reference and the baseline (the task's own code)
// on the trusted one.
DeviceRole device_role(ImplRole role);

// A compiled implementation on a device.
struct Impl {
  ImplRole role = ImplRole::reference;
  Device* device = nullptr;
  uint64_t module = 0;
  model::Entry entry;
};

// The seed-independent facts of one shape point. Throws lang::EvalError or
// std::invalid_argument on an expression that cannot be evaluated there.
struct PointSpec {
  model::ShapePoint point;
  std::vector<std::vector<int64_t>> shapes;  // per task tensor, in declaration order
  std::vector<model::Value> params;          // per task param, in declaration order
};
PointSpec make_point_spec(const model::Task& task, const model::ShapePoint& point);

// Host data per task tensor: inputs and inouts drawn from their distributions, outputs empty.
using HostSet = std::vector<HostTensor>;
HostSet make_inputs(const model::Task& task, const PointSpec& spec, uint64_t seed);
// Bytes of one set of the task's tensors at a point (inputs, outputs, inouts).
size_t set_bytes(const model::Task& task, const PointSpec& spec);

bool is_output(const model::Tensor& t);  // output or inout
bool is_input(const model::Tensor& t);   // input or inout
// The distribution an input is drawn from: its declared one, else a standard normal.
model::Distribution input_distribution(const model::Tensor& t);

// The task's tensors on one device: allocated on construction, freed on destruction.
class DeviceSet {
 public:
  DeviceSet(Device& device, const model::Task& task, const PointSpec& spec);
  ~DeviceSet();
  DeviceSet(const DeviceSet&) = delete;
  DeviceSet& operator=(const DeviceSet&) = delete;

  // Fresh inputs (and inouts) before a launch.
  void upload_inputs(const HostSet& host);
  // Output poison before a launch; alternates patterns by `launch_index`.
  void poison_outputs(uint64_t launch_index);
  // Outputs and inouts (others left empty) / inputs (others left empty).
  HostSet download_outputs();
  HostSet download_inputs();

  // The device buffers, per task tensor in declaration order.
  const std::vector<Buffer>& buffers() const { return buffers_; }

  // One launch or call of `impl` on these buffers.
  Invocation invocation(const Impl& impl) const;
  LaunchResult launch(const Impl& impl) const;
  // One timed sample of `repeat` launches on these same buffers (batch sizing).
  TimedResult timed(const Impl& impl, bool flush, int repeat = 1) const;

 private:
  std::vector<KernelArg> kernel_args(const model::Entry& entry) const;
  LauncherArgs launcher_args(const model::Entry& entry) const;
  LaunchConfig launch_config(const model::Entry& entry) const;
  HostSet download(bool outputs);

  Device& device_;
  const model::Task& task_;
  const PointSpec& spec_;
  std::vector<Buffer> buffers_;
  std::vector<HostTensor> poison_cache_[2];
};

// The arguments of one call of a launcher or python entry at a point: the tensors' dtypes, shapes
// and roles, the params and a torch module's init args; the tensors on `buffers` (declaration
// order) where given, else on no buffer (what Device::warm_up takes).
LauncherArgs call_shape(const model::Task& task, const model::Entry& entry, const PointSpec& spec,
                        const std::vector<Buffer>& buffers = {});

// The kernel signature the task declares for an entry (for CompileRequest::signature).
std::vector<KernelArg> declared_signature(const model::Task& task, const model::Entry& entry);

// What a device is asked to compile for an entry of a task: a HIP source with the declared
// signature (kernel mode) and the task's folder on the include path, or a Python entry.
CompileRequest compile_request(const model::Task& task, const model::Entry& entry);

}  // namespace kta::engine
