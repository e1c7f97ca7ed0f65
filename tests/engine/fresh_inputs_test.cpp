// Fresh inputs for timed rounds (engine/execute/fresh_inputs.h) on the fake device: which tensors
// rotate, that the device holds exactly what host_inputs() says each launch was given, that no
// two launches get the same inputs, that a rotation is the base shifted (the same elements) and
// that the base is drawn anew once it has served its rounds.
#include "engine/execute/fresh_inputs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

#include "engine/check/poison.h"
#include "tests/support/engine_fake_device.h"
#include "tests/support/engine_task_builder.h"

namespace kta::test {
namespace {

using engine::DeviceSet;
using engine::FreshInputs;
using engine::HostSet;

struct Point {
  model::Task task = vector_add_task("vadd", "/nonexistent", "ref.fake", "add.fake");
  engine::PointSpec spec;
  explicit Point(int64_t n) { spec = engine::make_point_spec(task, {{"N", n}}); }
};

std::vector<float> floats(const std::vector<std::byte>& bytes) {
  std::vector<float> v(bytes.size() / 4);
  std::memcpy(v.data(), bytes.data(), v.size() * 4);
  return v;
}

// One side: `launches` slots written for `rounds` rounds; per round, what the device holds.
struct Rounds {
  Point point;
  std::mt19937_64 rng{7};
  FreshInputs fresh{point.task, point.spec, rng};
  FakeDevice device{std::make_shared<FakeRegistry>()};
  FreshInputs::SideBuffers side;
  std::vector<std::unique_ptr<DeviceSet>> slots;
  uint64_t launches = 0;
  explicit Rounds(int64_t n, size_t count) : point(n) {
    for (size_t j = 0; j < count; ++j)
      slots.push_back(std::make_unique<DeviceSet>(device, point.task, point.spec));
  }
  void round() {
    fresh.begin_round(slots.size());
    fresh.write(device, side, slots, slots.size(), launches);
  }
};

TEST(FreshInputs, LargePositionFreeTensorsRotateSmallOnesAreDrawn) {
  Rounds big(int64_t(1) << 17, 4), small(1000, 4);
  big.round();
  small.round();
  EXPECT_EQ(big.fresh.rotated(), 2u);                  // x and y
  EXPECT_EQ(small.fresh.rotated(), 0u);                // under 1024 elements: drawn per launch
  EXPECT_EQ(big.fresh.pool_size(0), size_t(1) << 17);  // the tensor itself: a rotation
  // 1024 offsets per launch at least: for 256 launches 2^17 elements are windows of a pool of
  // 2^18; a tensor of 1024 elements is a window of a 64 Ki-element pool.
  big.fresh.begin_round(256);
  EXPECT_EQ(big.fresh.rotated(), 2u);
  EXPECT_EQ(big.fresh.pool_size(0), size_t(1) << 18);
  Rounds kilo(1024, 4);
  kilo.round();
  EXPECT_EQ(kilo.fresh.rotated(), 2u);
  EXPECT_EQ(kilo.fresh.pool_size(1), size_t(1) << 16);
  // A position-dependent distribution never rotates.
  Rounds ranged(int64_t(1) << 17, 1);
  ranged.point.task.tensors[0].init = model::Distribution{"arange", {}, {}};
  FreshInputs f(ranged.point.task, ranged.point.spec, ranged.rng);
  f.begin_round(1);
  EXPECT_EQ(f.rotated(), 1u);  // y only
}

TEST(FreshInputs, TheDeviceHoldsWhatEachLaunchIsSaidToHaveBeenGiven) {
  for (int64_t n : {int64_t(1000), int64_t(3000), int64_t(1) << 17}) {
    Rounds r(n, 3);
    std::set<uint64_t> seen;
    for (int round = 0; round < 5; ++round) {
      r.round();
      for (size_t j = 0; j < r.slots.size(); ++j) {
        HostSet want = r.fresh.host_inputs(j);
        HostSet got = r.slots[j]->download_inputs();
        for (size_t i : {0, 1}) {
          ASSERT_EQ(got[i].bytes, want[i].bytes)
              << "n " << n << " round " << round << " slot " << j;
          EXPECT_TRUE(
              seen.insert(engine::digest_bytes(want[i].bytes.data(), want[i].bytes.size(), i))
                  .second)
              << "a tensor seen twice, n " << n;
        }
        // Every element of the output holds one poison pattern.
        HostSet outs = r.slots[j]->download_outputs();
        std::vector<std::byte> z = outs[2].bytes;
        uint32_t first;
        std::memcpy(&first, z.data(), 4);
        EXPECT_TRUE(first == 0x7fc00000u || first == 0xffffffffu) << std::hex << first;
        for (size_t k = 0; k < z.size(); k += 4)
          ASSERT_EQ(std::memcmp(z.data() + k, &first, 4), 0) << "n " << n << " element " << k / 4;
      }
    }
  }
}

// A rotation holds the base's elements: within a base's life every launch's x is a permutation
// of the same multiset; after numel / (1024 x launches) rounds the base is drawn again.
TEST(FreshInputs, RotationsShareTheBaseUntilItHasServedItsRounds) {
  const int64_t n = int64_t(1) << 17;
  Rounds r(n, 4);  // a base lives 2^17 / (1024 x 4) = 32 rounds
  std::vector<float> first;
  for (int round = 0; round < 32; ++round) {
    r.round();
    std::vector<float> x = floats(r.fresh.host_inputs(round % 4).at(0).bytes);
    std::sort(x.begin(), x.end());
    if (round == 0) first = x;
    ASSERT_EQ(x, first) << "round " << round;
  }
  r.round();
  std::vector<float> x = floats(r.fresh.host_inputs(0).at(0).bytes);
  std::sort(x.begin(), x.end());
  EXPECT_NE(x, first) << "the base outlived its rounds";
  // The new base reaches the device: what it holds still matches.
  EXPECT_EQ(r.slots[1]->download_inputs().at(0).bytes, r.fresh.host_inputs(1).at(0).bytes);
}

// A tensor smaller than its pool (3000 elements, a 64 Ki-element pool, 4 launches: 16 rounds) is
// a contiguous window of one pool: over the pool's life the 192,000 values the launches get come
// from at most 64 Ki distinct ones (fresh draws would hold about 190,000), and two windows that
// share a value agree from there on, element by element, as slices of one sequence do. Launches
// differ.
TEST(FreshInputs, SmallerTensorsAreWindowsOfOnePool) {
  const int64_t n = 3000;
  Rounds r(n, 4);
  const size_t pool = size_t(1) << 16;
  std::vector<std::vector<float>> windows;
  for (int round = 0; round < 16; ++round) {
    r.round();
    ASSERT_EQ(r.fresh.pool_size(0), pool);
    for (size_t j = 0; j < 4; ++j) {
      ASSERT_EQ(r.slots[j]->download_inputs().at(0).bytes, r.fresh.host_inputs(j).at(0).bytes);
      windows.push_back(floats(r.fresh.host_inputs(j).at(0).bytes));
    }
  }
  // Two consecutive values place a window (one f32 value alone repeats among 64 Ki draws).
  std::map<std::pair<float, float>, std::pair<size_t, size_t>> where;  // -> (window, position)
  std::set<float> values;
  size_t overlaps = 0;
  for (size_t w = 0; w < windows.size(); ++w) {
    const auto& x = windows[w];
    values.insert(x.begin(), x.end());
    for (size_t p = 0; p + 1 < x.size(); ++p) {
      auto [it, fresh] = where.emplace(std::pair{x[p], x[p + 1]}, std::pair{w, p});
      if (fresh || it->second.first == w) continue;
      const auto& other = windows[it->second.first];
      for (size_t a = p, b = it->second.second; a < x.size() && b < other.size(); ++a, ++b)
        ASSERT_EQ(x[a], other[b]) << "windows " << w << " and " << it->second.first;
      ++overlaps;
    }
  }
  EXPECT_LE(values.size(), pool);
  EXPECT_GT(overlaps, 0u);
  std::set<std::vector<float>> distinct(windows.begin(), windows.end());
  EXPECT_EQ(distinct.size(), windows.size());
}

}  // namespace
}  // namespace kta::test
