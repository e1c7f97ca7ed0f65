#include "engine/inputs/generate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "engine/inputs/philox.h"
#include "engine/inputs/portable_math.h"
#include "engine/inputs/sampler.h"
#include "engine/inputs/slices.h"
#include "lang/hash.h"

namespace kta::engine {

using model::Distribution;
using model::DType;

namespace {

// A distribution's resolved arguments, in declaration order.
using Args = std::vector<double>;

// One distribution: its arguments with defaults (NaN: required), a validity check, and a fill of
// elements [begin, end) into `out[0 .. end-begin)`.
using Fill = void (*)(const Args&, uint64_t key, size_t begin, size_t end, double* out);
struct Generator {
  std::vector<std::pair<std::string, double>> args;
  void (*check)(const Distribution&, const Args&, DType, size_t numel);
  Fill fill;  // null: a sampler with tables, built in make_sampler
};

constexpr double kRequired = std::numeric_limits<double>::quiet_NaN();

[[noreturn]] void bad(const Distribution& d, const std::string& what) {
  throw std::invalid_argument(fmt::format("{}: {}", d.name, what));
}

bool is_integer_dtype(DType t) {
  return t == DType::i8 || t == DType::i32 || t == DType::i64 || t == DType::u8 ||
         t == DType::u32 || t == DType::u64 || t == DType::boolean;
}

std::pair<double, double> integer_range(DType t) {
  switch (t) {
    case DType::i8:
      return {-128, 127};
    case DType::u8:
      return {0, 255};
    case DType::boolean:
      return {0, 1};
    case DType::i32:
      return {-2147483648.0, 2147483647.0};
    case DType::u32:
      return {0, 4294967295.0};
    case DType::u64:
      return {0, 0x1p64};
    default:
      return {-0x1p63, 0x1p63};
  }
}

// Values a distribution can produce must be representable in an integer dtype: silent
// saturation would hand the kernel inputs nobody asked for.
void check_fits(const Distribution& d, DType t, double lo, double hi) {
  if (!is_integer_dtype(t)) return;
  auto [min, max] = integer_range(t);
  if (lo < min || hi > max)
    bad(d, fmt::format("values in [{}, {}] do not fit {}", lo, hi, dtype_name(t)));
}

bool integral(double v) { return std::isfinite(v) && std::floor(v) == v; }

// ---- the distributions: a validity check and a fill each ----

bool is_unsigned_dtype(DType t) { return t == DType::u8 || t == DType::u32 || t == DType::u64; }

void check_normal(const Distribution& d, const Args& a, DType t, size_t) {
  if (!(a[1] >= 0)) bad(d, fmt::format("std ({}) must be >= 0", a[1]));
  // Half its values would saturate to 0.
  if (is_unsigned_dtype(t))
    bad(d, fmt::format("draws negative values, which {} cannot hold", dtype_name(t)));
}

void fill_normal(const Args& a, uint64_t key, size_t begin, size_t end, double* out) {
  double mean = a[0], sd = a[1];
  fill_pairs(key, begin, end, out, [=](const PhiloxCounter& w) {
    // Box-Muller; the open interval keeps log finite.
    auto [u1, u2] = two_uniforms(w);
    double r = std::sqrt(-2.0 * portable::log(u1));
    double s, c;
    portable::sincos_2pi(u2, &s, &c);
    return std::pair{mean + sd * (r * c), mean + sd * (r * s)};
  });
}

void check_uniform(const Distribution& d, const Args& a, DType t, size_t) {
  if (!(a[0] < a[1])) bad(d, fmt::format("lo ({}) must be < hi ({})", a[0], a[1]));
  if (is_unsigned_dtype(t) && a[0] < 0)
    bad(d, fmt::format("lo ({}) is negative, which {} cannot hold", a[0], dtype_name(t)));
}

void fill_uniform(const Args& a, uint64_t key, size_t begin, size_t end, double* out) {
  double lo = a[0], width = a[1] - a[0];
  fill_pairs(key, begin, end, out, [=](const PhiloxCounter& w) {
    auto [u1, u2] = two_uniforms(w);
    return std::pair{lo + width * u1, lo + width * u2};
  });
}

void check_integers(const Distribution& d, const Args& a, DType t, size_t) {
  double lo = a[0], hi = a[1];
  if (!integral(lo) || !integral(hi))
    bad(d, fmt::format("lo ({}) and hi ({}) must be integers", lo, hi));
  if (!(lo < hi)) bad(d, fmt::format("lo ({}) must be < hi ({})", lo, hi));
  if (hi - lo > 0x1p53) bad(d, "range wider than 2^53");
  check_fits(d, t, lo, hi - 1);
}

void fill_integers(const Args& a, uint64_t key, size_t begin, size_t end, double* out) {
  double lo = a[0];
  auto range = static_cast<uint64_t>(a[1] - a[0]);
  auto pick = [range](uint32_t hi, uint32_t lo32) {  // multiply-shift: no modulo bias
    uint64_t bits = (uint64_t{hi} << 32) | lo32;
    return static_cast<double>(
        static_cast<uint64_t>((static_cast<unsigned __int128>(bits) * range) >> 64));
  };
  fill_pairs(key, begin, end, out, [=](const PhiloxCounter& w) {
    return std::pair{lo + pick(w[0], w[1]), lo + pick(w[2], w[3])};
  });
}

void check_bernoulli(const Distribution& d, const Args& a, DType, size_t) {
  if (!(a[0] >= 0 && a[0] <= 1)) bad(d, fmt::format("p ({}) must be in [0, 1]", a[0]));
}

void fill_bernoulli(const Args& a, uint64_t key, size_t begin, size_t end, double* out) {
  double p = a[0];
  fill_pairs(key, begin, end, out, [=](const PhiloxCounter& w) {
    auto [u1, u2] = two_uniforms(w);
    return std::pair{u1 < p ? 1.0 : 0.0, u2 < p ? 1.0 : 0.0};
  });
}

void check_nothing(const Distribution&, const Args&, DType, size_t) {}

void fill_ones(const Args&, uint64_t, size_t begin, size_t end, double* out) {
  std::fill(out, out + (end - begin), 1.0);
}

void fill_zeros(const Args&, uint64_t, size_t begin, size_t end, double* out) {
  std::fill(out, out + (end - begin), 0.0);
}

void check_constant(const Distribution& d, const Args& a, DType t, size_t) {
  if (is_integer_dtype(t) && !std::isfinite(a[0]))
    bad(d, fmt::format("value {} does not fit {}", a[0], dtype_name(t)));
  check_fits(d, t, a[0], a[0]);
}

void fill_constant(const Args& a, uint64_t, size_t begin, size_t end, double* out) {
  std::fill(out, out + (end - begin), a[0]);
}

void check_arange(const Distribution& d, const Args& a, DType t, size_t numel) {
  if (numel == 0) return;
  double last = a[0] + a[1] * static_cast<double>(numel - 1);
  check_fits(d, t, std::min(a[0], last), std::max(a[0], last));
}

void fill_arange(const Args& a, uint64_t, size_t begin, size_t end, double* out) {
  for (size_t i = begin; i < end; ++i) out[i - begin] = a[0] + a[1] * static_cast<double>(i);
}

void check_power_law(const Distribution& d, const Args& a, DType t, size_t numel) {
  if (!(a[0] > 0)) bad(d, fmt::format("alpha ({}) must be > 0", a[0]));
  check_integers(d, {a[1], a[2]}, t, numel);
}

const std::map<std::string, Generator>& generators() {
  static const std::map<std::string, Generator> table = {
      {"normal", {{{"mean", 0.0}, {"std", 1.0}}, check_normal, fill_normal}},
      {"uniform", {{{"lo", 0.0}, {"hi", 1.0}}, check_uniform, fill_uniform}},
      // uniform integers in [lo, hi)
      {"integers", {{{"lo", 0.0}, {"hi", kRequired}}, check_integers, fill_integers}},
      // 1 with probability p, else 0
      {"bernoulli", {{{"p", 0.5}}, check_bernoulli, fill_bernoulli}},
      {"ones", {{}, check_nothing, fill_ones}},
      {"zeros", {{}, check_nothing, fill_zeros}},
      {"constant", {{{"value", kRequired}}, check_constant, fill_constant}},
      // start, start + step, start + 2 step, ...
      {"arange", {{{"start", 0.0}, {"step", 1.0}}, check_arange, fill_arange}},
      // integers in [lo, hi), k with probability proportional to (k - lo + 1)^-alpha
      {"power_law", {{{"alpha", 1.0}, {"lo", 0.0}, {"hi", kRequired}}, check_power_law, nullptr}},
  };
  return table;
}

// The distributions with list arguments, built by their own code below.
constexpr const char* kListDistributions[] = {"categorical", "mixture"};

// The distribution's number arguments with defaults filled in and unknown or missing ones named.
Args resolve_args(const Distribution& d, const Generator& g) {
  Args out;
  std::vector<bool> given(g.args.size());
  for (const auto& [name, def] : g.args) out.push_back(def);
  for (const model::DistributionArg& a : d.args) {
    const std::string& name = a.name;
    auto it =
        std::find_if(g.args.begin(), g.args.end(), [&](const auto& x) { return x.first == name; });
    if (it == g.args.end()) {
      std::vector<std::string> names;
      for (const auto& x : g.args) names.push_back(x.first);
      bad(d, names.empty() ? fmt::format("takes no arguments, got '{}'", name)
                           : fmt::format("unknown argument '{}' (expected {})", name,
                                         fmt::join(names, ", ")));
    }
    if (a.is_list || a.numbers.size() != 1)
      bad(d, fmt::format("argument '{}' must be a number, not a list", name));
    double value = a.numbers[0];
    // Only a constant may fill a floating tensor with inf or nan (an inout's -inf start).
    if (!std::isfinite(value) && d.name != "constant")
      bad(d, fmt::format("argument '{}' is not finite", name));
    out[static_cast<size_t>(it - g.args.begin())] = value;
    given[static_cast<size_t>(it - g.args.begin())] = true;
  }
  for (size_t k = 0; k < out.size(); ++k)
    if (!given[k] && std::isnan(g.args[k].second))
      bad(d, fmt::format("missing argument '{}'", g.args[k].first));
  return out;
}

// A number list argument; `required`: it must be given.
const std::vector<double>& list_arg(const Distribution& d, const char* name) {
  static const std::vector<double> none;
  const model::DistributionArg* a = d.arg(name);
  if (!a) return none;
  if (!a->is_list || !a->components.empty())
    bad(d, fmt::format("argument '{}' must be a list of numbers", name));
  return a->numbers;
}

void check_list_args(const Distribution& d, std::initializer_list<const char*> known) {
  for (const model::DistributionArg& a : d.args)
    if (std::find_if(known.begin(), known.end(), [&](const char* k) { return a.name == k; }) ==
        known.end())
      bad(d, fmt::format("unknown argument '{}' (expected {})", a.name, fmt::join(known, ", ")));
}

// Weights: finite, >= 0, not all zero; `count` of them when `count` is set.
void check_weights(const Distribution& d, const std::vector<double>& w) {
  double sum = 0;
  for (size_t k = 0; k < w.size(); ++k) {
    if (!(w[k] >= 0) || !std::isfinite(w[k]))
      bad(d, fmt::format("weight {} ({}) must be finite and >= 0", k + 1, w[k]));
    sum += w[k];
  }
  if (w.empty()) bad(d, "weights must not be empty");
  if (!(sum > 0)) bad(d, "weights must not all be 0");
}

class TableSampler : public Sampler {
 public:
  TableSampler(Args args, Fill f) : args_(std::move(args)), fill_(f) {}
  void fill(uint64_t key, size_t begin, size_t end, double* out) const override {
    fill_(args_, key, begin, end, out);
  }

 private:
  Args args_;
  Fill fill_;
};

std::unique_ptr<Sampler> categorical(const Distribution& d, DType t) {
  check_list_args(d, {"weights", "values"});
  const std::vector<double>& w = list_arg(d, "weights");
  const std::vector<double>& v = list_arg(d, "values");
  check_weights(d, w);
  if (!v.empty() && v.size() != w.size())
    bad(d, fmt::format("{} values for {} weights", v.size(), w.size()));
  for (double x : v)
    if (!std::isfinite(x)) bad(d, fmt::format("value {} is not finite", x));
  if (v.empty()) {
    check_fits(d, t, 0, static_cast<double>(w.size() - 1));
  } else {
    for (double x : v) check_fits(d, t, x, x);
  }
  return make_categorical(w, v);
}

// Each element comes from component c with probability weights[c] (equal when none are given);
// component c draws from its own key, so the components are independent of each other and of
// the choice.
class Mixture : public Sampler {
 public:
  Mixture(std::vector<std::unique_ptr<Sampler>> parts, const std::vector<double>& weights)
      : parts_(std::move(parts)), choice_(weights) {}

  void fill(uint64_t key, size_t begin, size_t end, double* out) const override {
    size_t n = end - begin;
    std::vector<double> draws(n * parts_.size());
    for (size_t c = 0; c < parts_.size(); ++c)
      parts_[c]->fill(lang::hash_mix(key, c + 1), begin, end, draws.data() + c * n);
    fill_pairs(key, begin, end, out, [](const PhiloxCounter& w) { return two_uniforms(w); });
    for (size_t k = 0; k < n; ++k) out[k] = draws[choice_.pick(out[k]) * n + k];
  }

 private:
  std::vector<std::unique_ptr<Sampler>> parts_;
  CumulativeTable choice_;
};

std::unique_ptr<Sampler> mixture(const Distribution& d, DType t, size_t numel) {
  check_list_args(d, {"components", "weights"});
  const model::DistributionArg* c = d.arg("components");
  if (!c || c->components.empty()) bad(d, "needs at least one component");
  std::vector<double> w = list_arg(d, "weights");
  if (w.empty()) w.assign(c->components.size(), 1.0);
  if (w.size() != c->components.size())
    bad(d, fmt::format("{} weights for {} components", w.size(), c->components.size()));
  check_weights(d, w);
  std::vector<std::unique_ptr<Sampler>> parts;
  for (const Distribution& part : c->components) parts.push_back(make_sampler(part, t, numel));
  return std::make_unique<Mixture>(std::move(parts), w);
}

}  // namespace

uint64_t input_key(std::string_view task, const model::ShapePoint& point, uint64_t seed,
                   std::string_view tensor) {
  uint64_t h = lang::hash_string(task, 0x6b7461u /* "kta" */);
  h = lang::hash_mix(h, point.size());
  for (const auto& [name, value] : point) {
    h = lang::hash_mix(h, lang::hash_string(name));
    h = lang::hash_mix(h, static_cast<uint64_t>(value));
  }
  h = lang::hash_mix(h, seed);
  return lang::hash_mix(h, lang::hash_string(tensor));
}

const std::vector<std::string>& known_distributions() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& [name, g] : generators()) v.push_back(name);
    for (const char* name : kListDistributions) v.push_back(name);
    std::sort(v.begin(), v.end());
    return v;
  }();
  return names;
}

std::unique_ptr<Sampler> make_sampler(const Distribution& dist, DType dtype, size_t numel) {
  if (dist.name == "categorical") return categorical(dist, dtype);
  if (dist.name == "mixture") return mixture(dist, dtype, numel);
  auto it = generators().find(dist.name);
  if (it == generators().end())
    throw std::invalid_argument(fmt::format("unknown input distribution '{}' (known: {})",
                                            dist.name, fmt::join(known_distributions(), ", ")));
  const Generator& g = it->second;
  Args args = resolve_args(dist, g);
  g.check(dist, args, dtype, numel);
  if (dist.name == "power_law") return make_power_law(args[0], args[1], args[2]);
  return std::make_unique<TableSampler>(std::move(args), g.fill);
}

namespace {

void fill_slice(HostTensor& out, const Sampler& sampler, uint64_t key, size_t begin, size_t end) {
  constexpr size_t kChunk = 4096;  // doubles per pass: stays in L1
  double buf[kChunk];
  for (size_t b = begin; b < end; b += kChunk) {
    size_t e = std::min(end, b + kChunk);
    sampler.fill(key, b, e, buf);
    store_elements(out, b, e - b, buf);
  }
}

}  // namespace

void generate_slice(HostTensor& out, const Distribution& dist, uint64_t key, size_t begin,
                    size_t end) {
  fill_slice(out, *make_sampler(dist, out.dtype, out.numel()), key, begin, end);
}

HostTensor generate_input(const model::Tensor& tensor, const std::vector<int64_t>& shape,
                          const Distribution& dist, std::string_view task,
                          const model::ShapePoint& point, uint64_t seed) {
  if (shape.size() != tensor.shape.size())
    throw std::invalid_argument(fmt::format("tensor '{}' has {} dimensions, got a shape of {}",
                                            tensor.name, tensor.shape.size(), shape.size()));
  HostTensor out = HostTensor::zeros(tensor.dtype, shape);
  std::unique_ptr<Sampler> sampler = make_sampler(dist, tensor.dtype, out.numel());
  uint64_t key = input_key(task, point, seed, tensor.name);

  size_t n = out.numel();
  // ~64 Ki elements per thread: Box-Muller costs ~35 ns an element, so a 1 Mi-element tensor
  // (a typical visible shape) took ~35 ms on one thread, which dominated a GPU evaluation.
  for_slices(n, slice_count(n, size_t{1} << 16),
             [&](size_t, size_t begin, size_t end) { fill_slice(out, *sampler, key, begin, end); });
  return out;
}

}  // namespace kta::engine
