// The checks that run the task's own code: the reference and the baseline on every visible and
// held-out point and seed, on the trusted device, as `kta eval` runs them (engine-drawn inputs,
// poisoned outputs, the task's tolerances). Internal to engine/validate.
#pragma once

#include <optional>
#include <vector>

#include "engine/device/device.h"
#include "engine/execute/executor.h"
#include "engine/validate/validate.h"

namespace kta::engine {

struct DeviceCheckResults {
  // reference.meaningful, reference.inputs, determinism, tolerance.margin, tolerance.cheap,
  // heldout.baseline, in that order.
  std::vector<CheckOutcome> checks;
  // The trusted device the baseline ran on (timing.floor and timing.physics read its timer and
  // ceilings); unset when it did not run.
  std::optional<DeviceInfo> baseline_device;
};

// `visible` and `heldout` are the job's points (held-out from a fixed validation secret).
DeviceCheckResults run_device_checks(const model::Task& task,
                                     const std::vector<model::ShapePoint>& visible,
                                     const std::vector<model::ShapePoint>& heldout, int seeds,
                                     const DeviceFactory& make_device);

// "ref.hip:14: atomicAdd on float 'out'" for each float atomic in a HIP source (and the files it
// includes from its folder); empty when none. For the determinism check and its tests.
std::vector<std::string> float_atomics(const std::filesystem::path& source);

}  // namespace kta::engine
