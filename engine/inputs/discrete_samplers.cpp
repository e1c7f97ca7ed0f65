// Categorical and power-law (Zipf) samplers: inverse transform through a cumulative table, built
// once per tensor with portable arithmetic so that every platform draws the same values.
#include <algorithm>
#include <cmath>

#include "engine/inputs/portable_math.h"
#include "engine/inputs/sampler.h"

namespace kta::engine {

CumulativeTable::CumulativeTable(const std::vector<double>& weights) : cdf_(weights.size()) {
  double total = 0;
  size_t last = 0;  // the last index with a positive weight
  for (size_t k = 0; k < weights.size(); ++k) {
    total += weights[k];
    cdf_[k] = total;
    if (weights[k] > 0) last = k;
  }
  for (double& c : cdf_) c /= total;
  // From the last positive weight on the table reads exactly 1: rounding must not leave a sliver
  // of probability to trailing zero weights.
  std::fill(cdf_.begin() + static_cast<std::ptrdiff_t>(last), cdf_.end(), 1.0);
  guide_.resize(cdf_.size());
  size_t k = 0;
  for (size_t j = 0; j < guide_.size(); ++j) {
    double u = static_cast<double>(j) / static_cast<double>(guide_.size());
    while (k + 1 < cdf_.size() && cdf_[k] <= u) ++k;
    guide_[j] = static_cast<uint32_t>(k);
  }
}

size_t CumulativeTable::pick(double u) const {
  // The first k with u < cdf[k]: zero weights repeat the previous sum and are never picked. The
  // guide entry may be one off where u * size rounds across an integer: walk either way.
  auto j = static_cast<size_t>(u * static_cast<double>(guide_.size()));
  size_t k = guide_[std::min(j, guide_.size() - 1)];
  while (k > 0 && cdf_[k - 1] > u) --k;
  while (k + 1 < cdf_.size() && cdf_[k] <= u) ++k;
  return k;
}

namespace {

class Categorical : public Sampler {
 public:
  Categorical(const std::vector<double>& weights, const std::vector<double>& values)
      : table_(weights), values_(values) {
    if (values_.empty())
      for (size_t k = 0; k < weights.size(); ++k) values_.push_back(static_cast<double>(k));
  }

  void fill(uint64_t key, size_t begin, size_t end, double* out) const override {
    fill_pairs(key, begin, end, out, [this](const PhiloxCounter& w) {
      auto [u1, u2] = two_uniforms(w);
      return std::pair{values_[table_.pick(u1)], values_[table_.pick(u2)]};
    });
  }

 private:
  CumulativeTable table_;
  std::vector<double> values_;
};

// The first kHead ranks come from an exact table; the rest (a large vocabulary's long tail)
// from the continuous density x^-alpha on [kHead + 1/2, n + 1/2), rounded to the nearest rank:
// its mass per rank differs from the discrete law's by under alpha / (24 k^2) relative.
constexpr uint64_t kHead = 1 << 16;

double power(double x, double e) { return portable::exp(e * portable::log(x)); }

class PowerLaw : public Sampler {
 public:
  PowerLaw(double alpha, double lo, double hi)
      : alpha_(alpha),
        lo_(lo),
        n_(static_cast<uint64_t>(hi - lo)),
        head_n_(std::min(n_, kHead)),
        head_(head_weights()) {
    if (head_n_ == n_) return;
    a_ = static_cast<double>(head_n_) + 0.5;
    b_ = static_cast<double>(n_) + 0.5;
    if (alpha_ == 1) {
      tail_mass_ = portable::log(b_ / a_);
    } else {
      a_pow_ = power(a_, 1 - alpha_);
      b_pow_ = power(b_, 1 - alpha_);
      tail_mass_ = (b_pow_ - a_pow_) / (1 - alpha_);
    }
  }

  void fill(uint64_t key, size_t begin, size_t end, double* out) const override {
    fill_pairs(key, begin, end, out, [this](const PhiloxCounter& w) {
      auto [u1, u2] = two_uniforms(w);
      return std::pair{lo_ + rank(u1) - 1, lo_ + rank(u2) - 1};
    });
  }

 private:
  double alpha_, lo_;
  uint64_t n_, head_n_;
  double head_mass_ = 0;
  CumulativeTable head_;
  double tail_mass_ = 0, a_ = 0, b_ = 0, a_pow_ = 0, b_pow_ = 0;

  std::vector<double> head_weights() {
    std::vector<double> w(head_n_);
    for (uint64_t r = 1; r <= head_n_; ++r) {
      w[r - 1] = power(static_cast<double>(r), -alpha_);
      head_mass_ += w[r - 1];
    }
    return w;
  }

  // The rank in [1, n] for a uniform u in (0, 1).
  double rank(double u) const {
    double t = u * (head_mass_ + tail_mass_);
    if (t < head_mass_ || tail_mass_ == 0)
      return static_cast<double>(head_.pick(std::min(t / head_mass_, 1.0)) + 1);
    double v = (t - head_mass_) / tail_mass_;
    double x = alpha_ == 1 ? a_ * portable::exp(v * portable::log(b_ / a_))
                           : power(a_pow_ + v * (b_pow_ - a_pow_), 1 / (1 - alpha_));
    double r = std::floor(x + 0.5);
    return std::clamp(r, static_cast<double>(head_n_ + 1), static_cast<double>(n_));
  }
};

}  // namespace

std::unique_ptr<Sampler> make_categorical(const std::vector<double>& weights,
                                          const std::vector<double>& values) {
  return std::make_unique<Categorical>(weights, values);
}

std::unique_ptr<Sampler> make_power_law(double alpha, double lo, double hi) {
  return std::make_unique<PowerLaw>(alpha, lo, hi);
}

}  // namespace kta::engine
