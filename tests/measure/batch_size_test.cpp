#include "engine/measure/batch_size.h"

#include <gtest/gtest.h>

namespace kta::engine {
namespace {

// A device whose launch costs `kernel` seconds on the GPU plus `overhead` seconds per sample
// (one launch gap), as seen per launch.
auto device(double kernel, double overhead, int* calls) {
  return [=](int repeat) {
    ++*calls;
    Sample s;
    s.seconds = kernel + overhead / repeat;
    return s;
  };
}

TEST(BatchSize, MicrosecondKernelGetsAboutAMillisecondPerSample) {
  int calls = 0;
  int r = batch_repeat(device(1e-6, 4e-6, &calls));
  EXPECT_GE(r * 1e-6, 0.5e-3);
  EXPECT_LE(r, 4096);
  EXPECT_LE(calls, 4);
}

TEST(BatchSize, LaunchOverheadDoesNotStopTheSizingShortOfTheTarget) {
  // A single launch looks 5x slower than the kernel; one step from it would stop at ~200.
  int calls = 0;
  int r = batch_repeat(device(1e-6, 4e-6, &calls));
  EXPECT_GT(r, 400);
  EXPECT_GE(calls, 2);
}

TEST(BatchSize, SlowKernelIsLaunchedOncePerSample) {
  int calls = 0;
  EXPECT_EQ(batch_repeat(device(2e-3, 5e-6, &calls)), 1);
  EXPECT_EQ(calls, 1);
}

TEST(BatchSize, TinyKernelIsCappedAtTheMaximum) {
  int calls = 0;
  BatchSizing s;
  s.max_repeat = 100;
  EXPECT_EQ(batch_repeat(device(1e-9, 0, &calls), s), 100);
}

TEST(BatchSize, FailedSampleFallsBackToOneLaunch) {
  auto failing = [](int) {
    Sample s;
    s.ok = false;
    s.error = "illegal address";
    return s;
  };
  EXPECT_EQ(batch_repeat(failing), 1);
}

}  // namespace
}  // namespace kta::engine
