// The checks that need no device (held-out points, the prompt, the bytes annotation) and those
// that run the executor (timing, solutions). Internal to engine/validate.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/device/device.h"
#include "engine/plan/plan.h"
#include "engine/validate/validate.h"

namespace kta::engine {

// One check's outcome without details: the one way every check file makes one.
CheckOutcome outcome(std::string name, CheckLevel level, std::string reason);

// heldout.points over the held-out points that each of several run secrets gives.
CheckOutcome heldout_points_check(const model::Task& task,
                                  const std::vector<model::ShapePoint>& visible,
                                  const std::vector<std::vector<model::ShapePoint>>& heldout);

// prompt: built as a command agent gets it for `job`.
CheckOutcome prompt_check(const TaskJob& job,
                          const std::vector<std::vector<model::ShapePoint>>& heldout,
                          const ValidateOptions& options);

// The first point where `bytes` is more than the task's tensors hold (inputs read once, outputs
// written once, inouts both), as a reason; nullopt when it never is.
std::optional<std::string> bytes_above_tensors(const model::Task& task,
                                               const std::vector<model::ShapePoint>& points);

// timing.self, timing.floor, timing.physics, timing.shapes and starter from one run of the task's
// baseline agent on the visible points (and the held-out ones where there is a starter).
// starter: a task whose candidate starts from a file of its own (torch2hip's HIP starter) must
// hand the agent a correct one, on the visible and the held-out points; skipped where the
// candidate starts from the baseline. `baseline_device`: the trusted device the baseline ran on in
// the device checks; `bytes_problem`: bytes_above_tensors's finding.
std::vector<CheckOutcome> timing_checks(const model::Task& task, const ValidateOptions& options,
                                        const std::optional<DeviceInfo>& baseline_device,
                                        const std::optional<std::string>& bytes_problem);

// timing.self from a timing run's performance report: identical code must read 1.00x, within
// twice the noise target of `timing`, the protocol it was measured with (at least 5%), where the
// interval excludes it.
CheckOutcome self_check(const model::Task& task, const model::Timing& timing,
                        const PerformanceReport& pr);

// solutions: the replay agent's run of the task's solution, visible and held-out.
CheckOutcome solutions_check(const model::Task& task, const ValidateOptions& options);

// The run secret validation uses: the held-out points of a generator are those of `index`.
std::string validation_secret(int index);

}  // namespace kta::engine
