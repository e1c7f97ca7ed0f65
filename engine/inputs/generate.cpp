#include "engine/inputs/generate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "engine/inputs/philox.h"
#include "engine/inputs/portable_math.h"
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
struct Generator {
  std::vector<std::pair<std::string, double>> args;
  void (*check)(const Distribution&, const Args&, DType, size_t numel);
  void (*fill)(const Args&, uint64_t key, size_t begin, size_t end, double* out);
};

constexpr double kRequired = std::numeric_limits<double>::quiet_NaN();

[[noreturn]] void bad(const Distribution& d, const std::string& what) {
  throw std::invalid_argument(fmt::format("{}: {}", d.name, what));
}

bool is_integer_dtype(DType t) {
  return t == DType::i8 || t == DType::i32 || t == DType::i64 || t == DType::u8 ||
         t == DType::boolean;
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
    bad(d, fmt::format("values in [{}, {}] do not fit {}", lo, hi,
                       t == DType::boolean ? "bool" : (t == DType::u8 ? "u8" : "the dtype")));
}

bool integral(double v) { return std::isfinite(v) && std::floor(v) == v; }

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

std::pair<double, double> two_uniforms(const PhiloxCounter& w) {
  return {uniform_open01(w[0], w[1]), uniform_open01(w[2], w[3])};
}

// ---- the distributions: a validity check and a fill each ----

void check_normal(const Distribution& d, const Args& a, DType, size_t) {
  if (!(a[1] >= 0)) bad(d, fmt::format("std ({}) must be >= 0", a[1]));
}

void fill_normal(const Args& a, uint64_t key, size_t begin, size_t end, double* out) {
  double mean = a[0], sd = a[1];
  fill_pairs(key, begin, end, out, [=](const PhiloxCounter& w) {
    // Box-Muller; the open interval keeps log finite.
    auto [u1, u2] = two_uniforms(w);
    double r = std::sqrt(-2.0 * portable::log(u1));
    return std::pair{mean + sd * (r * portable::cos_2pi(u2)),
                     mean + sd * (r * portable::sin_2pi(u2))};
  });
}

void check_uniform(const Distribution& d, const Args& a, DType, size_t) {
  if (!(a[0] < a[1])) bad(d, fmt::format("lo ({}) must be < hi ({})", a[0], a[1]));
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
  };
  return table;
}

// The distribution's arguments with defaults filled in and unknown or missing ones named.
Args resolve_args(const Distribution& d, const Generator& g) {
  Args out;
  for (const auto& [name, def] : g.args) out.push_back(def);
  for (const auto& [name, value] : d.args) {
    auto it =
        std::find_if(g.args.begin(), g.args.end(), [&](const auto& a) { return a.first == name; });
    if (it == g.args.end()) {
      std::vector<std::string> names;
      for (const auto& a : g.args) names.push_back(a.first);
      bad(d, names.empty() ? fmt::format("takes no arguments, got '{}'", name)
                           : fmt::format("unknown argument '{}' (expected {})", name,
                                         fmt::join(names, ", ")));
    }
    if (!std::isfinite(value)) bad(d, fmt::format("argument '{}' is not finite", name));
    out[static_cast<size_t>(it - g.args.begin())] = value;
  }
  for (size_t k = 0; k < out.size(); ++k)
    if (std::isnan(out[k])) bad(d, fmt::format("missing argument '{}'", g.args[k].first));
  return out;
}

const Generator& find_generator(const Distribution& d) {
  auto it = generators().find(d.name);
  if (it == generators().end())
    throw std::invalid_argument(fmt::format("unknown input distribution '{}' (known: {})", d.name,
                                            fmt::join(known_distributions(), ", ")));
  return it->second;
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
    return v;
  }();
  return names;
}

void generate_slice(HostTensor& out, const Distribution& dist, uint64_t key, size_t begin,
                    size_t end) {
  const Generator& g = find_generator(dist);
  Args args = resolve_args(dist, g);
  constexpr size_t kChunk = 4096;  // doubles per pass: stays in L1
  double buf[kChunk];
  for (size_t b = begin; b < end; b += kChunk) {
    size_t e = std::min(end, b + kChunk);
    g.fill(args, key, b, e, buf);
    store_elements(out, b, e - b, buf);
  }
}

HostTensor generate_input(const model::Tensor& tensor, const std::vector<int64_t>& shape,
                          const Distribution& dist, std::string_view task,
                          const model::ShapePoint& point, uint64_t seed) {
  if (shape.size() != tensor.shape.size())
    throw std::invalid_argument(fmt::format("tensor '{}' has {} dimensions, got a shape of {}",
                                            tensor.name, tensor.shape.size(), shape.size()));
  HostTensor out = HostTensor::zeros(tensor.dtype, shape);
  const Generator& g = find_generator(dist);
  g.check(dist, resolve_args(dist, g), tensor.dtype, out.numel());
  uint64_t key = input_key(task, point, seed, tensor.name);

  size_t n = out.numel();
  // ~64 Ki elements per thread: Box-Muller costs ~35 ns an element, so a 1 Mi-element tensor
  // (a typical visible shape) took ~35 ms on one thread, which dominated a GPU evaluation.
  for_slices(n, slice_count(n, size_t{1} << 16),
             [&](size_t, size_t begin, size_t end) { generate_slice(out, dist, key, begin, end); });
  return out;
}

}  // namespace kta::engine
