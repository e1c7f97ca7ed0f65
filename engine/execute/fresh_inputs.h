// Fresh inputs for the timed rounds of one shape point (point_protocol.h): every launch of every
// round gets inputs it cannot have seen before, at a host cost well below the sampling's.
//
//   a small tensor    is drawn anew on the host for every launch and uploaded, as always;
//   a large tensor    (numel >= max(64 Ki, 1024 x the launches of a round)) whose distribution
//                     does not depend on the element's position (every one but arange) is a
//                     rotation of a base tensor by a number of elements the engine draws from
//                     its own randomness: the base is drawn once and uploaded once to each side,
//                     and a launch's tensor is two copies within the device (Device::copy).
//
// The elements of a drawn tensor are independent and identically distributed, so any rotation
// of one is distributed exactly as a fresh draw; each tensor rotates by a shift of its own, so
// no pairing between the elements of two inputs survives from one launch to the next. A base
// serves numel / (1024 x launches) rounds and is then drawn again: over its life fewer than one
// launch in a thousand can meet a rotation it met before, so memoizing by content gains under
// 0.1%, and a rotation's shift is as unpredictable as the engine's randomness. Outputs are
// poisoned on the device as well: a fill where the pattern is one byte, else a copy from the
// side's base set, poisoned once.
//
// On the H200 a Triton rmsnorm point of 164 M f16 elements spent its rounds drawing 328 MB on
// the host and staging it through the runner to the GPU three times (bench/engine/RESULTS.md).
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "engine/execute/bindings.h"

namespace kta::engine {

class FreshInputs {
 public:
  // `rng`: the engine's own randomness, which the candidate cannot see (the shifts).
  FreshInputs(const model::Task& task, const PointSpec& spec, std::mt19937_64& rng);

  // The inputs of a round of `launches` launches per sample: host draws for the small tensors,
  // shifts for the large ones, a new base when the old one has served its rounds.
  void begin_round(size_t launches);

  // One side's devices: its base set (made and uploaded here when missing or outdated) and the
  // slots of its sample, which get this round's inputs and poisoned outputs. `launches`: the
  // job's launch counter, which alternates the poison pattern.
  struct SideBuffers {
    std::unique_ptr<DeviceSet> base;
    uint64_t base_version = 0;
  };
  void write(Device& device, SideBuffers& side, std::vector<std::unique_ptr<DeviceSet>>& slots,
             size_t count, uint64_t& launches);

  // What launch `slot` of this round was given, for verifying its outputs.
  HostSet host_inputs(size_t slot) const;

  // Tensors this round rotates (tests, profiles).
  size_t rotated() const;

 private:
  bool rotates(size_t tensor, size_t launches) const;
  void draw_base();

  const model::Task& task_;
  const PointSpec& spec_;
  std::mt19937_64& rng_;
  std::vector<size_t> numel_;
  std::vector<bool> position_free_;
  std::vector<bool> rotating_;  // this round, per tensor
  HostSet base_;                // the base tensors (inputs only; empty before the first)
  uint64_t base_version_ = 0;   // bumped by every draw of the base
  uint64_t base_rounds_ = 0;    // rounds the current base has served
  uint64_t rounds_ = 0;         // rounds begun: no two draw from the same seeds
  std::vector<HostSet> drawn_;  // per slot: the small tensors drawn for this round
  std::vector<std::vector<size_t>> shifts_;  // per slot and tensor: the rotation, in elements
};

}  // namespace kta::engine
