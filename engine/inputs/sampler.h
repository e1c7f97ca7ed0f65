// A distribution ready to draw: arguments resolved and checked, tables built once per tensor, so
// that the slices drawn on many threads share them. Internal to engine/inputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/inputs/philox.h"
#include "lang/model.h"

namespace kta::engine {

// Elements 2k and 2k+1 share Philox block k: each block's 128 bits make two values (two
// 52-bit uniforms, or one Box-Muller pair). Element i still depends only on (key, i / 2).
template <class Pair>
void fill_pairs(uint64_t key, size_t begin, size_t end, double* out, Pair pair) {
  for (size_t i = begin; i < end;) {
    auto [v0, v1] = pair(philox_block(key, i >> 1));
    if ((i & 1) == 0) {
      out[i - begin] = v0;
      if (i + 1 < end) out[i + 1 - begin] = v1;
      i += 2;
    } else {
      out[i - begin] = v1;
      i += 1;
    }
  }
}

inline std::pair<double, double> two_uniforms(const PhiloxCounter& w) {
  return {uniform_open01(w[0], w[1]), uniform_open01(w[2], w[3])};
}

class Sampler {
 public:
  virtual ~Sampler() = default;
  // Elements [begin, end) of the tensor keyed `key` into out[0 .. end-begin); element i depends
  // only on (key, i).
  virtual void fill(uint64_t key, size_t begin, size_t end, double* out) const = 0;
};

// Checks `dist` against a tensor of `dtype` with `numel` elements and builds its sampler; throws
// std::invalid_argument with a named reason ("power_law: alpha (0) must be > 0").
std::unique_ptr<Sampler> make_sampler(const model::Distribution& dist, model::DType dtype,
                                      size_t numel);

// ---- the discrete distributions (engine/inputs/discrete_samplers.cpp) ----

// Values[k] with probability weights[k] / sum (values empty: k itself).
std::unique_ptr<Sampler> make_categorical(const std::vector<double>& weights,
                                          const std::vector<double>& values);
// Integers k in [lo, hi) with probability proportional to (k - lo + 1)^-alpha (Zipf's law).
std::unique_ptr<Sampler> make_power_law(double alpha, double lo, double hi);
// The index k in [0, weights.size()) of a cumulative table, for a uniform u in [0, 1): the first
// k whose running sum exceeds u. A guide table (Chen and Asau) starts the search near the answer,
// so a pick costs O(1) steps on average however long the table.
class CumulativeTable {
 public:
  explicit CumulativeTable(const std::vector<double>& weights);
  size_t pick(double u) const;

 private:
  std::vector<double> cdf_;      // normalized running sums, the last exactly 1
  std::vector<uint32_t> guide_;  // guide_[j]: the pick for u = j / guide_.size()
};

}  // namespace kta::engine
