// Fresh inputs for the timed rounds of one shape point (point_protocol.h): every launch of every
// round gets inputs it cannot have seen before, at a host cost well below the sampling's.
//
//   a small tensor    (under 1024 elements) is drawn anew on the host for every launch and
//                     uploaded, as always;
//   any other tensor  whose distribution does not depend on the element's position (every one
//                     but arange) is a window of a pool the engine drew once and uploaded once to
//                     each side: launch j's tensor is the pool's numel elements from an offset
//                     the engine draws from its own randomness (cyclically: one or two copies
//                     within the device, Device::copy). The pool holds max(numel, 64 Ki, 1024 x
//                     the launches of a round) elements, so a large tensor's pool is the tensor
//                     itself (a window is a rotation of it) and a smaller one's is larger.
//
// The elements of a drawn tensor are independent and identically distributed, so any window of a
// pool is distributed exactly as a fresh draw; each tensor has an offset of its own, so no
// pairing between the elements of two inputs survives from one launch to the next. A pool
// serves pool / (1024 x launches) rounds and is then drawn again: over its life fewer than one
// launch in a thousand can meet an offset it met before, so memoizing by content gains under
// 0.1%, and an offset is as unpredictable as the engine's randomness. A pool never costs more
// host draws per round than drawing each launch's tensor (1024 x launches elements against
// numel x launches). Outputs are poisoned on the device as well: a fill where the pattern is
// one byte, else a copy from the side's base set, poisoned once.
//
// Tensors of 1-64 Ki elements used to be drawn per launch: on an H100 a hip2hip batch-timed point
// (permute4d, 256 launches a round) spent 4.2 s of 9.5 s drawing them and 3.2 s uploading.
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
  // One side's pools on its device, freed with it.
  struct Pools {
    explicit Pools(Device& d) : device(d) {}
    ~Pools();
    Pools(const Pools&) = delete;
    Pools& operator=(const Pools&) = delete;
    Device& device;
    std::vector<Buffer> buffers;  // per task tensor; unset where the tensor is not pooled
    std::vector<size_t> bytes;
  };
  struct SideBuffers {
    std::unique_ptr<DeviceSet> base;  // the outputs' NaN poison, copied from here
    std::unique_ptr<Pools> pools;
    uint64_t base_version = 0;
  };
  void write(Device& device, SideBuffers& side, std::vector<std::unique_ptr<DeviceSet>>& slots,
             size_t count, uint64_t& launches);

  // What launch `slot` of this round was given, for verifying its outputs.
  HostSet host_inputs(size_t slot) const;

  // Tensors this round takes as windows of their pools (tests, profiles).
  size_t rotated() const;
  // The pool of tensor `i` this round, in elements (0: not pooled).
  size_t pool_size(size_t i) const { return i < pool_.size() ? pool_[i] : 0; }

 private:
  size_t pool_for(size_t tensor, size_t launches) const;  // 0: drawn per launch
  void draw_base();

  const model::Task& task_;
  const PointSpec& spec_;
  std::mt19937_64& rng_;
  std::vector<size_t> numel_;
  std::vector<bool> position_free_;
  std::vector<bool> rotating_;               // this round, per tensor: a window of its pool
  std::vector<size_t> pool_;                 // this round, per tensor: its pool's elements
  HostSet base_;                             // the pools (inputs only; empty before the first)
  uint64_t base_version_ = 0;                // bumped by every draw of the base
  uint64_t base_rounds_ = 0;                 // rounds the current base has served
  uint64_t rounds_ = 0;                      // rounds begun: no two draw from the same seeds
  std::vector<HostSet> drawn_;               // per slot: the small tensors drawn for this round
  std::vector<std::vector<size_t>> shifts_;  // per slot and tensor: the window's offset
};

}  // namespace kta::engine
