#include "engine/execute/fresh_inputs.h"

#include <algorithm>

#include "engine/check/poison.h"
#include "engine/inputs/generate.h"

namespace kta::engine {

namespace {

// Timing draws from seeds no correctness check uses: round r, launch j; bases from their own.
constexpr uint64_t kTimingSeeds = uint64_t(1) << 40;
constexpr uint64_t kLaunchStride = uint64_t(1) << 20;
constexpr uint64_t kBaseSeeds = uint64_t(1) << 41;
// A tensor rotates from this many elements on (a draw costs ~35 ns an element on one core:
// ~2 ms here), and from this many per launch of a round.
constexpr size_t kRotateMin = size_t(1) << 16;
constexpr size_t kShiftsPerLaunch = 1024;

// Whether element i's distribution is the same for every i (a rotation is then a fresh draw).
bool position_free(const model::Distribution& d) {
  if (d.name == "arange") return false;
  for (const model::DistributionArg& a : d.args)
    for (const model::Distribution& c : a.components)
      if (!position_free(c)) return false;
  return true;
}

HostTensor rotate_by(const HostTensor& base, size_t shift) {
  HostTensor out;
  out.dtype = base.dtype;
  out.shape = base.shape;
  out.bytes.resize(base.bytes.size());
  size_t at = shift * base.element_size();
  std::rotate_copy(base.bytes.begin(), base.bytes.begin() + static_cast<std::ptrdiff_t>(at),
                   base.bytes.end(), out.bytes.begin());
  return out;
}

}  // namespace

FreshInputs::FreshInputs(const model::Task& task, const PointSpec& spec, std::mt19937_64& rng)
    : task_(task), spec_(spec), rng_(rng) {
  for (size_t i = 0; i < task.tensors.size(); ++i) {
    size_t n = 1;
    for (int64_t d : spec.shapes[i]) n *= static_cast<size_t>(std::max<int64_t>(d, 0));
    numel_.push_back(n);
    position_free_.push_back(is_input(task.tensors[i]) &&
                             position_free(input_distribution(task.tensors[i])));
  }
  rotating_.assign(task.tensors.size(), false);
}

bool FreshInputs::rotates(size_t i, size_t launches) const {
  return position_free_[i] && numel_[i] >= std::max(kRotateMin, kShiftsPerLaunch * launches);
}

size_t FreshInputs::rotated() const {
  return static_cast<size_t>(std::count(rotating_.begin(), rotating_.end(), true));
}

void FreshInputs::draw_base() {
  base_.assign(task_.tensors.size(), HostTensor{});
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    if (!rotating_[i]) continue;
    const model::Tensor& t = task_.tensors[i];
    base_[i] = generate_input(t, spec_.shapes[i], input_distribution(t), task_.name, spec_.point,
                              kBaseSeeds + base_version_ * task_.tensors.size() + i);
  }
  ++base_version_;
  base_rounds_ = 0;
}

void FreshInputs::begin_round(size_t launches) {
  launches = std::max<size_t>(launches, 1);
  // A base serves as many rounds as its smallest rotating tensor has shifts to spare.
  uint64_t life = UINT64_MAX;
  bool changed = false;
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    bool r = rotates(i, launches);
    changed = changed || (r && (base_.size() <= i || base_[i].bytes.empty()));
    rotating_[i] = r;
    if (r) life = std::min<uint64_t>(life, numel_[i] / (kShiftsPerLaunch * launches));
  }
  if (rotated() > 0 && (changed || base_rounds_ >= std::max<uint64_t>(life, 1))) draw_base();
  ++base_rounds_;

  drawn_.assign(launches, HostSet(task_.tensors.size()));
  shifts_.assign(launches, std::vector<size_t>(task_.tensors.size(), 0));
  for (size_t j = 0; j < launches; ++j) {
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      const model::Tensor& t = task_.tensors[i];
      if (rotating_[i]) {
        shifts_[j][i] = std::uniform_int_distribution<size_t>(0, numel_[i] - 1)(rng_);
      } else if (is_input(t)) {
        drawn_[j][i] = generate_input(t, spec_.shapes[i], input_distribution(t), task_.name,
                                      spec_.point, kTimingSeeds + rounds_ * kLaunchStride + j);
      }
    }
  }
  ++rounds_;
}

void FreshInputs::write(Device& device, SideBuffers& side,
                        std::vector<std::unique_ptr<DeviceSet>>& slots, size_t count,
                        uint64_t& launches) {
  count = std::min({count, slots.size(), drawn_.size()});
  if (rotated() == 0) {  // small tensors only: drawn and uploaded, outputs poisoned from the host
    for (size_t j = 0; j < count; ++j) {
      slots[j]->upload_inputs(drawn_[j]);
      slots[j]->poison_outputs(launches++);
    }
    return;
  }
  if (!side.base) side.base = std::make_unique<DeviceSet>(device, task_, spec_);
  const std::vector<Buffer>& base = side.base->buffers();
  if (side.base_version != base_version_) {
    for (size_t i = 0; i < task_.tensors.size(); ++i)
      if (i < base_.size() && !base_[i].bytes.empty())
        device.upload(base[i], base_[i].bytes.data(), base_[i].bytes.size());
    if (side.base_version == 0) side.base->poison_outputs(0);  // launch 0's pattern: NaN
    side.base_version = base_version_;
  }
  std::vector<BufferCopy> copies;
  for (size_t j = 0; j < count; ++j) {
    const std::vector<Buffer>& slot = slots[j]->buffers();
    Poison poison = poison_for_launch(launches++);
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      const model::Tensor& t = task_.tensors[i];
      size_t bytes = numel_[i] * dtype_size(t.dtype);
      if (rotating_[i]) {
        size_t at = shifts_[j][i] * dtype_size(t.dtype);
        copies.push_back({slot[i], 0, base[i], at, bytes - at});
        if (at > 0) copies.push_back({slot[i], bytes - at, base[i], 0, at});
      } else if (is_input(t)) {
        device.upload(slot[i], drawn_[j][i].bytes.data(), drawn_[j][i].bytes.size());
      } else if (int byte = poison_fill_byte(t.dtype, poison); byte >= 0) {
        device.fill(slot[i], static_cast<uint8_t>(byte));
      } else {  // NaN: the base set's copy of it
        copies.push_back({slot[i], 0, base[i], 0, bytes});
      }
    }
  }
  device.copy(copies);
}

HostSet FreshInputs::host_inputs(size_t slot) const {
  HostSet set(task_.tensors.size());
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    if (rotating_[i]) {
      set[i] = rotate_by(base_[i], shifts_.at(slot)[i]);
    } else if (is_input(task_.tensors[i])) {
      set[i] = drawn_.at(slot)[i];
    } else {
      set[i].dtype = task_.tensors[i].dtype;
      set[i].shape = spec_.shapes[i];
    }
  }
  return set;
}

}  // namespace kta::engine
