// The verdict on one launch: outputs against the reference under the task's tolerances, inputs
// against their digests (a kernel that writes its inputs fails).
#pragma once

#include <string>

#include "engine/execute/bindings.h"
#include "engine/results/records.h"

namespace kta::engine {

struct CheckResult {
  bool launched = true;  // false: the launch itself failed (crash, hang, launch error)
  bool correct = false;
  std::string reason;
  // The same verdict without any number derived from the shape (element counts, indices): what
  // held-out results may say.
  std::string blind_reason;
};

// `text` with every run of digits replaced by '#', for launch errors at held-out points.
std::string mask_numbers(const std::string& text);

// The tolerance declared for an output; exact equality when none is declared.
model::Tolerance tolerance_for(const model::Task& task, const std::string& name);

// Fills rec's error figures; `after_inputs` are the inputs read back after the launch.
CheckResult judge(const model::Task& task, const HostSet& inputs, const HostSet& after_inputs,
                  const HostSet& got, const HostSet& want, ShapeRecord& rec);

}  // namespace kta::engine
