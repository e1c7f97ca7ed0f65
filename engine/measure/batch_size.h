// How many back-to-back launches one batch sample holds. A microsecond-scale kernel timed one
// launch per sample measures launch overhead and the event timer's tick, not the kernel (on the
// H200 a 1 µs kernel read 3.3-5 µs with 6-10% noise that way). Replaying enough launches that a
// sample lasts about a millisecond brought the run-to-run spread of a 1 µs kernel's median from
// 0.03-0.19% (200 launches, ~0.2 ms) to 0.01-0.03% (1000 launches, ~1.2 ms): bench/hip/RESULTS.md.
#pragma once

#include <functional>

#include "engine/measure/protocol.h"

namespace kta::engine {

struct BatchSizing {
  double target_seconds = 1e-3;  // one sample should last at least this long
  int max_repeat = 4096;
  int max_rounds = 4;  // calibration samples at most
};

// Grows the launch count until one sample (`sample(repeat)` returns seconds per launch) lasts
// about `target_seconds`; the first guess from a single launch overestimates the per-launch time
// (launch overhead), so it re-measures at the new size. Returns 1 when a sample fails (the
// measurement that follows reports the failure).
int batch_repeat(const std::function<Sample(int repeat)>& sample, const BatchSizing& sizing = {});

}  // namespace kta::engine
