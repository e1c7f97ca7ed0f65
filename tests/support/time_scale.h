// Wall-clock limits in tests: generous, and scaled by KTA_TEST_TIME_SCALE (default 1) so that a
// slow or busy machine can stretch every one of them at once. A test never asserts that work
// finished within a tight margin; these bound how long a broken test may hang.
#pragma once

#include <cstdlib>

namespace kta::test {

inline double time_scale() {
  const char* s = std::getenv("KTA_TEST_TIME_SCALE");
  double v = s != nullptr ? std::atof(s) : 1.0;
  return v > 0 ? v : 1.0;
}

// `seconds` on this machine.
inline double scaled_seconds(double seconds) { return seconds * time_scale(); }

}  // namespace kta::test
