#include "engine/execute/fresh_inputs.h"

#include <algorithm>
#include <cstring>

#include "engine/check/poison.h"
#include "engine/inputs/generate.h"

namespace kta::engine {

namespace {

// Timing draws from seeds no correctness check uses: round r, launch j; bases from their own.
constexpr uint64_t kTimingSeeds = uint64_t(1) << 40;
constexpr uint64_t kLaunchStride = uint64_t(1) << 20;
constexpr uint64_t kBaseSeeds = uint64_t(1) << 41;
// A pool holds at least this many elements (a draw costs ~35 ns an element on one core: ~2 ms
// here), and this many per launch of a round: the offsets one launch may meet again.
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

// The `numel` elements of `pool` from `offset` on, cyclically, as a tensor of `shape`.
HostTensor window_of(const HostTensor& pool, size_t offset, size_t numel,
                     const std::vector<int64_t>& shape) {
  HostTensor out;
  out.dtype = pool.dtype;
  out.shape = shape;
  size_t es = pool.element_size();
  out.bytes.resize(numel * es);
  size_t total = pool.bytes.size() / es;
  size_t first = std::min(numel, total - offset);
  std::memcpy(out.bytes.data(), pool.bytes.data() + offset * es, first * es);
  std::memcpy(out.bytes.data() + first * es, pool.bytes.data(), (numel - first) * es);
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

size_t FreshInputs::pool_for(size_t i, size_t launches) const {
  if (!position_free_[i] || numel_[i] < kShiftsPerLaunch) return 0;
  return std::max({numel_[i], kRotateMin, kShiftsPerLaunch * launches});
}

FreshInputs::Pools::~Pools() {
  for (const Buffer& b : buffers)
    if (b.bytes > 0) device.free(b);
}

size_t FreshInputs::rotated() const {
  return static_cast<size_t>(std::count(rotating_.begin(), rotating_.end(), true));
}

void FreshInputs::draw_base() {
  base_.assign(task_.tensors.size(), HostTensor{});
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    if (!rotating_[i]) continue;
    const model::Tensor& t = task_.tensors[i];
    // The pool as one long first dimension (elements are a function of their index alone).
    std::vector<int64_t> shape(spec_.shapes[i].size(), 1);
    if (shape.empty()) shape.push_back(1);
    shape[0] = static_cast<int64_t>(pool_[i]);
    base_[i] = generate_input(t, shape, input_distribution(t), task_.name, spec_.point,
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
  pool_.assign(task_.tensors.size(), 0);
  for (size_t i = 0; i < task_.tensors.size(); ++i) {
    size_t pool = pool_for(i, launches);
    bool r = pool > 0;
    changed = changed || (r && (base_.size() <= i || base_[i].numel() != pool));
    rotating_[i] = r;
    pool_[i] = pool;
    if (r) life = std::min<uint64_t>(life, pool / (kShiftsPerLaunch * launches));
  }
  if (rotated() > 0 && (changed || base_rounds_ >= std::max<uint64_t>(life, 1))) draw_base();
  ++base_rounds_;

  drawn_.assign(launches, HostSet(task_.tensors.size()));
  shifts_.assign(launches, std::vector<size_t>(task_.tensors.size(), 0));
  for (size_t j = 0; j < launches; ++j) {
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      const model::Tensor& t = task_.tensors[i];
      if (rotating_[i]) {
        shifts_[j][i] = std::uniform_int_distribution<size_t>(0, pool_[i] - 1)(rng_);
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
  if (!side.base) {
    side.base = std::make_unique<DeviceSet>(device, task_, spec_);
    side.base->poison_outputs(0);  // launch 0's pattern: NaN
  }
  const std::vector<Buffer>& base = side.base->buffers();
  if (!side.pools) side.pools = std::make_unique<Pools>(device);
  Pools& pools = *side.pools;
  if (side.base_version != base_version_) {
    pools.buffers.resize(task_.tensors.size());
    pools.bytes.resize(task_.tensors.size(), 0);
    for (size_t i = 0; i < task_.tensors.size(); ++i) {
      if (i >= base_.size() || base_[i].bytes.empty()) continue;
      if (pools.bytes[i] != base_[i].bytes.size()) {
        if (pools.bytes[i] > 0) device.free(pools.buffers[i]);
        pools.bytes[i] = 0;
        pools.buffers[i] = device.alloc(base_[i].bytes.size());
        pools.bytes[i] = base_[i].bytes.size();
      }
      device.upload(pools.buffers[i], base_[i].bytes.data(), base_[i].bytes.size());
    }
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
        size_t es = dtype_size(t.dtype);
        size_t from = shifts_[j][i] * es, pool = pools.bytes[i];
        size_t first = std::min(bytes, pool - from);
        copies.push_back({slot[i], 0, pools.buffers[i], from, first});
        if (first < bytes) copies.push_back({slot[i], first, pools.buffers[i], 0, bytes - first});
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
      set[i] = window_of(base_[i], shifts_.at(slot)[i], numel_[i], spec_.shapes[i]);
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
