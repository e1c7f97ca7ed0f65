#include "engine/measure/batch_size.h"

#include <algorithm>
#include <cmath>

namespace kta::engine {

int batch_repeat(const std::function<Sample(int repeat)>& sample, const BatchSizing& sizing) {
  int repeat = 1;
  for (int round = 0; round < sizing.max_rounds; ++round) {
    Sample s = sample(repeat);
    if (!s.ok) return 1;
    double total = std::max(s.seconds, 1e-12) * repeat;
    if (total >= 0.5 * sizing.target_seconds || repeat >= sizing.max_repeat) break;
    double want = std::ceil(double(repeat) * sizing.target_seconds / total);
    repeat = int(std::clamp(want, double(repeat + 1), double(sizing.max_repeat)));
  }
  return repeat;
}

}  // namespace kta::engine
