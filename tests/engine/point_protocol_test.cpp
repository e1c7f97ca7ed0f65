// The measurement protocol's guarantees (engine/execute/point_protocol.h), observed on the fake
// device, which sees every launch: under cold and batch timing every counted launch gets inputs
// no launch saw before (none of the correctness gate's, none of another round's or another
// launch's of the same batch) and finds its whole output poisoned; a batch's launches have
// buffers of their own, so the poison is in place before the timed call and never inside it; the
// launch verified after sampling is a random one of its batch, not the last.
#include <cmath>
#include <cstring>
#include <set>

#include "engine/check/poison.h"
#include "tests/engine/engine_fixture.h"

namespace kta::test {
namespace {

class PointProtocolTest : public EngineFixture {
 protected:
  struct Seen {
    uint64_t inputs = 0;    // digest of x and y
    bool poisoned = false;  // every element of z held a poison pattern at the launch
    int batch = 0, index = -1;
    const void* output = nullptr;
  };
  void SetUp() override {
    EngineFixture::SetUp();
    auto log = seen;
    registry->kernels["recorder"] = {
        [log](const FakeLaunch& l) {
          const int64_t n = l.scalar(3);
          Seen s;
          s.inputs = engine::digest_bytes(l.ptr<float>(1), size_t(n) * 4,
                                          engine::digest_bytes(l.ptr<float>(0), size_t(n) * 4));
          s.poisoned = true;
          for (int64_t i = 0; i < n; ++i) {
            uint32_t bits;
            std::memcpy(&bits, &l.ptr<float>(2)[i], 4);
            s.poisoned = s.poisoned && (bits == 0x7fc00000u || bits == 0xffffffffu);
          }
          s.batch = l.timed_batch;
          s.index = l.batch_index;
          s.output = l.ptrs[2];
          log->push_back(s);
          return add_kernel(l);
        },
        1e-6};
  }
  model::Plan plan(model::Timing::Mode mode) {
    model::Plan p = replay_plan({{"vadd", "recorder"}});
    p.tasks[0].timing.mode = mode;
    return p;
  }
  // The launches of counted samples: timed calls (not the correctness gate's run()), without the
  // batch sizing's trials (a batch of one slot launched again and again: the same output).
  std::vector<Seen> counted() const {
    std::vector<Seen> out;
    for (size_t i = 0; i < seen->size();) {
      const Seen& first = (*seen)[i];
      if (first.batch == 0) {
        ++i;
        continue;
      }
      std::set<const void*> outputs;
      for (size_t j = i; j < i + size_t(first.batch); ++j) outputs.insert((*seen)[j].output);
      if (outputs.size() == size_t(first.batch))
        out.insert(out.end(), seen->begin() + long(i), seen->begin() + long(i) + first.batch);
      i += size_t(first.batch);
    }
    return out;
  }
  std::shared_ptr<std::vector<Seen>> seen = std::make_shared<std::vector<Seen>>();
};

class FreshInputs : public PointProtocolTest,
                    public ::testing::WithParamInterface<model::Timing::Mode> {};

TEST_P(FreshInputs, EveryCountedLaunchHasInputsNeverSeenBeforeAndAPoisonedOutput) {
  auto out = run(plan(GetParam()));
  ASSERT_TRUE(out[0].correct) << out[0].failure_reason;
  std::vector<Seen> timed = counted();
  const bool batch = GetParam() == model::Timing::Mode::batch;
  // Quick timing: at least 3 rounds per shape, two shapes; a batch holds many launches.
  ASSERT_GE(timed.size(), batch ? 2u * 3 * 100 : 2u * 3);
  std::set<uint64_t> correctness;
  for (const Seen& s : *seen)
    if (s.batch == 0) correctness.insert(s.inputs);
  ASSERT_GE(correctness.size(), 4u);  // 2 shapes x 2 seeds, and the held-out points
  std::set<uint64_t> inputs;
  for (const Seen& s : timed) {
    EXPECT_TRUE(inputs.insert(s.inputs).second) << "inputs seen twice by timed launches";
    EXPECT_EQ(correctness.count(s.inputs), 0u)
        << "a timed launch got the correctness gate's inputs";
    EXPECT_TRUE(s.poisoned) << "a timed launch found its output not poisoned";
  }
}

INSTANTIATE_TEST_SUITE_P(Timing, FreshInputs,
                         ::testing::Values(model::Timing::Mode::cold, model::Timing::Mode::batch),
                         [](const auto& param_info) {
                           return param_info.param == model::Timing::Mode::cold ? "Cold" : "Batch";
                         });

// The same guarantees where the tensors are large enough to rotate on the device
// (engine/execute/fresh_inputs.h): each launch's x and y are rotations of a base by shifts of
// their own, never a pair seen before, and outputs are poisoned by device copies; the verified
// launch's inputs, rebuilt on the host from the base and its shifts, are what it was given (the
// verification passes, and the input-mutation check with it).
TEST_P(FreshInputs, LargeTensorsRotateOnTheDeviceAndStayFresh) {
  model::Plan p = plan(GetParam());
  p.tasks[0].visible = {{{"N", int64_t(1) << 17}}};
  p.tasks[0].heldout.clear();
  auto out = run(p);
  ASSERT_TRUE(out[0].correct) << out[0].failure_reason;
  EXPECT_GT(registry->copies, 0u) << "no input was rotated on the device";
  std::vector<Seen> timed = counted();
  ASSERT_GE(timed.size(), 3u);
  std::set<uint64_t> inputs;
  for (const Seen& s : timed) {
    EXPECT_TRUE(inputs.insert(s.inputs).second) << "inputs seen twice by timed launches";
    EXPECT_TRUE(s.poisoned) << "a timed launch found its output not poisoned";
  }
}

// Within one timed call every launch has output buffers of its own: the poisoned copies are put
// in place before the sample (by buffer, outside the timed region), not written between launches.
TEST_F(PointProtocolTest, ABatchsLaunchesHaveBuffersOfTheirOwn) {
  run(plan(model::Timing::Mode::batch));
  int samples = 0;
  for (const auto& e : registry->events) {
    if (e.kernel != "recorder" || e.buffers.size() < 2) continue;
    std::set<uint64_t> ids;
    for (const auto& b : e.buffers) ids.insert(b.id);
    if (ids.size() == 1) continue;  // a sizing trial: one slot again and again
    EXPECT_EQ(ids.size(), e.buffers.size());
    ++samples;
  }
  EXPECT_GE(samples, 6);
}

// The verified launch: downloaded right after its sample, a uniformly random launch of the batch.
// Over the points and rounds where it was picked, its place in the batch is not always the last
// (nor always the same); were it the last, a kernel that skips every launch but the last would
// never be caught (with 256 launches a batch, all-last by chance has odds below 1e-9).
TEST_F(PointProtocolTest, TheVerifiedLaunchIsARandomOneOfItsBatch) {
  run(plan(model::Timing::Mode::batch));
  std::vector<FakeRegistry::BufferRef> last_sample;
  std::vector<size_t> places;
  size_t batch = 0;
  for (const auto& e : registry->events) {
    if (e.kernel == "recorder" && e.buffers.size() > 1 &&
        !(e.buffers.front() == e.buffers.back())) {
      last_sample = e.buffers;
      batch = e.buffers.size();
    } else if (e.kernel.empty()) {
      for (size_t i = 0; i < last_sample.size(); ++i)
        if (last_sample[i] == e.buffers[0]) places.push_back(i);
    }
  }
  ASSERT_GE(batch, 100u);
  ASSERT_GE(places.size(), 2u);  // at least the first counted round of each shape
  std::set<size_t> distinct(places.begin(), places.end());
  EXPECT_GE(distinct.size(), 2u);
  EXPECT_TRUE(std::any_of(places.begin(), places.end(), [&](size_t p) { return p != batch - 1; }));
}

// A timed launch that kills the worker: the step fails by name and drops both workers, after
// the protocol's buffers were freed on them (freeing them on a worker already dropped was a use
// after free that crashed kta now and then).
TEST_F(PointProtocolTest, AFailedTimedLaunchFreesItsBuffersBeforeItsDevicesGo) {
  registry->kernels["dies_when_timed"] = {[](const FakeLaunch& l) {
                                            if (l.timed_batch > 0)
                                              return std::string("worker killed by signal 11");
                                            return add_kernel(l);
                                          },
                                          1e-6};
  for (auto mode : {model::Timing::Mode::cold, model::Timing::Mode::batch}) {
    registry->buffers_at_destruction.clear();
    model::Plan p = replay_plan({{"vadd", "dies_when_timed"}});
    p.tasks[0].timing.mode = mode;
    p.output = root / (mode == model::Timing::Mode::cold ? "run-cold" : "run-batch");
    auto out = run(p);
    EXPECT_EQ(out[0].failure_reason.rfind("performance: timed launch failed: ", 0), 0u)
        << out[0].failure_reason;
    EXPECT_NE(out[0].failure_reason.find("worker killed by signal 11"), std::string::npos)
        << out[0].failure_reason;
    ASSERT_FALSE(registry->buffers_at_destruction.empty());
    for (size_t held : registry->buffers_at_destruction) EXPECT_EQ(held, 0u);
  }
}

// The same for a reference that fails while verifying the timed launch: its buffers go first.
TEST_F(PointProtocolTest, AFailedReferenceFreesItsBuffersBeforeItsDeviceGoes) {
  // Right for the correctness gate's reference runs (2 shapes x 2 seeds), then it fails.
  registry->kernels["ref"] = {[](const FakeLaunch& l) {
                                if (l.call_index >= 4) return std::string("reference crashed");
                                return add_kernel(l);
                              },
                              5e-3};
  auto out = run(replay_plan({{"vadd", "add"}}));
  EXPECT_NE(out[0].failure_reason.find("reference failed: reference crashed"), std::string::npos)
      << out[0].failure_reason;
  ASSERT_FALSE(registry->buffers_at_destruction.empty());
  for (size_t held : registry->buffers_at_destruction) EXPECT_EQ(held, 0u);
}

}  // namespace
}  // namespace kta::test
