// Fresh inputs for timed rounds (engine/execute/fresh_inputs.h) on the fake device: which tensors
// rotate, that the device holds exactly what host_inputs() says each launch was given, that no
// two launches get the same inputs, that a rotation is the base shifted (the same elements) and
// that the base is drawn anew once it has served its rounds.
#include "engine/execute/fresh_inputs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
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
  EXPECT_EQ(big.fresh.rotated(), 2u);  // x and y
  EXPECT_EQ(small.fresh.rotated(), 0u);
  // 1024 shifts per launch at least: 2^17 elements rotate for 128 launches, not for 256.
  big.fresh.begin_round(256);
  EXPECT_EQ(big.fresh.rotated(), 0u);
  // A position-dependent distribution never rotates.
  Rounds ranged(int64_t(1) << 17, 1);
  ranged.point.task.tensors[0].init = model::Distribution{"arange", {}, {}};
  FreshInputs f(ranged.point.task, ranged.point.spec, ranged.rng);
  f.begin_round(1);
  EXPECT_EQ(f.rotated(), 1u);  // y only
}

TEST(FreshInputs, TheDeviceHoldsWhatEachLaunchIsSaidToHaveBeenGiven) {
  for (int64_t n : {int64_t(1000), int64_t(1) << 17}) {
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

}  // namespace
}  // namespace kta::test
