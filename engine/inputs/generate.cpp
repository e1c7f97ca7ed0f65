#include "engine/inputs/generate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "engine/inputs/hash.h"
#include "engine/inputs/philox.h"
#include "engine/inputs/portable_math.h"

namespace kta::engine {

using model::Distribution;
using model::DType;

namespace {

// One distribution: its arguments with defaults (NaN: required), a validity check, and the
// value of element i from that element's Philox block.
struct Generator {
  std::vector<std::pair<std::string, double>> args;
  void (*check)(const Distribution&, const std::map<std::string, double>&, DType, size_t numel);
  double (*draw)(const std::map<std::string, double>&, const PhiloxCounter&, uint64_t index);
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
    case DType::i8: return {-128, 127};
    case DType::u8: return {0, 255};
    case DType::boolean: return {0, 1};
    case DType::i32: return {-2147483648.0, 2147483647.0};
    default: return {-0x1p63, 0x1p63};
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

double u01(const PhiloxCounter& w) { return uniform_open01(w[0], w[1]); }

const std::map<std::string, Generator>& generators() {
  static const std::map<std::string, Generator> table = {
      {"normal",
       {{{"mean", 0.0}, {"std", 1.0}},
        [](const Distribution& d, const auto& a, DType, size_t) {
          if (!(a.at("std") >= 0)) bad(d, fmt::format("std ({}) must be >= 0", a.at("std")));
        },
        [](const auto& a, const PhiloxCounter& w, uint64_t) {
          // Box-Muller on two uniforms of the same block; open (0, 1) keeps log finite.
          double r = std::sqrt(-2.0 * portable::log(uniform_open01(w[0], w[1])));
          double z = r * portable::cos_2pi(uniform_open01(w[2], w[3]));
          return a.at("mean") + a.at("std") * z;
        }}},
      {"uniform",
       {{{"lo", 0.0}, {"hi", 1.0}},
        [](const Distribution& d, const auto& a, DType, size_t) {
          if (!(a.at("lo") < a.at("hi")))
            bad(d, fmt::format("lo ({}) must be < hi ({})", a.at("lo"), a.at("hi")));
        },
        [](const auto& a, const PhiloxCounter& w, uint64_t) {
          return a.at("lo") + (a.at("hi") - a.at("lo")) * u01(w);
        }}},
      {"integers",  // uniform integers in [lo, hi)
       {{{"lo", 0.0}, {"hi", kRequired}},
        [](const Distribution& d, const auto& a, DType t, size_t) {
          double lo = a.at("lo"), hi = a.at("hi");
          if (!integral(lo) || !integral(hi))
            bad(d, fmt::format("lo ({}) and hi ({}) must be integers", lo, hi));
          if (!(lo < hi)) bad(d, fmt::format("lo ({}) must be < hi ({})", lo, hi));
          if (hi - lo > 0x1p53) bad(d, "range wider than 2^53");
          check_fits(d, t, lo, hi - 1);
        },
        [](const auto& a, const PhiloxCounter& w, uint64_t) {
          auto range = static_cast<uint64_t>(a.at("hi") - a.at("lo"));
          uint64_t bits = (uint64_t{w[0]} << 32) | w[1];
          auto pick = static_cast<uint64_t>((static_cast<unsigned __int128>(bits) * range) >> 64);
          return a.at("lo") + static_cast<double>(pick);
        }}},
      {"bernoulli",  // 1 with probability p, else 0
       {{{"p", 0.5}},
        [](const Distribution& d, const auto& a, DType, size_t) {
          if (!(a.at("p") >= 0 && a.at("p") <= 1))
            bad(d, fmt::format("p ({}) must be in [0, 1]", a.at("p")));
        },
        [](const auto& a, const PhiloxCounter& w, uint64_t) {
          return u01(w) < a.at("p") ? 1.0 : 0.0;
        }}},
      {"ones",
       {{},
        [](const Distribution&, const auto&, DType, size_t) {},
        [](const auto&, const PhiloxCounter&, uint64_t) { return 1.0; }}},
      {"zeros",
       {{},
        [](const Distribution&, const auto&, DType, size_t) {},
        [](const auto&, const PhiloxCounter&, uint64_t) { return 0.0; }}},
      {"constant",
       {{{"value", kRequired}},
        [](const Distribution& d, const auto& a, DType t, size_t) {
          check_fits(d, t, a.at("value"), a.at("value"));
        },
        [](const auto& a, const PhiloxCounter&, uint64_t) { return a.at("value"); }}},
      {"arange",  // start, start + step, start + 2 step, ...
       {{{"start", 0.0}, {"step", 1.0}},
        [](const Distribution& d, const auto& a, DType t, size_t numel) {
          if (numel == 0) return;
          double last = a.at("start") + a.at("step") * static_cast<double>(numel - 1);
          check_fits(d, t, std::min(a.at("start"), last), std::max(a.at("start"), last));
        },
        [](const auto& a, const PhiloxCounter&, uint64_t i) {
          return a.at("start") + a.at("step") * static_cast<double>(i);
        }}},
  };
  return table;
}

bool needs_random(const std::string& name) {
  return name == "normal" || name == "uniform" || name == "integers" || name == "bernoulli";
}

// The distribution's arguments with defaults filled in and unknown or missing ones named.
std::map<std::string, double> resolve_args(const Distribution& d, const Generator& g) {
  std::map<std::string, double> out;
  for (const auto& [name, def] : g.args) out[name] = def;
  for (const auto& [name, value] : d.args) {
    if (!out.count(name)) {
      std::vector<std::string> names;
      for (const auto& a : g.args) names.push_back(a.first);
      bad(d, names.empty() ? fmt::format("takes no arguments, got '{}'", name)
                           : fmt::format("unknown argument '{}' (expected {})", name,
                                         fmt::join(names, ", ")));
    }
    if (!std::isfinite(value)) bad(d, fmt::format("argument '{}' is not finite", name));
    out[name] = value;
  }
  for (const auto& [name, value] : out)
    if (std::isnan(value)) bad(d, fmt::format("missing argument '{}'", name));
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
  uint64_t h = hash_string(task, 0x6b7461u /* "kta" */);
  h = hash_mix(h, point.size());
  for (const auto& [name, value] : point) {
    h = hash_mix(h, hash_string(name));
    h = hash_mix(h, static_cast<uint64_t>(value));
  }
  h = hash_mix(h, seed);
  return hash_mix(h, hash_string(tensor));
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
  auto args = resolve_args(dist, g);
  bool random = needs_random(dist.name);
  PhiloxCounter none{};
  for (size_t i = begin; i < end; ++i)
    set_element(out, i, g.draw(args, random ? philox_block(key, i) : none, i));
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
  constexpr size_t kPerThread = size_t{1} << 20;
  size_t threads = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()),
                                    (n + kPerThread - 1) / kPerThread);
  if (threads <= 1) {
    generate_slice(out, dist, key, 0, n);
    return out;
  }
  std::vector<std::thread> pool;
  size_t chunk = (n + threads - 1) / threads;
  for (size_t t = 0; t < threads; ++t) {
    size_t b = t * chunk, e = std::min(n, b + chunk);
    pool.emplace_back([&out, &dist, key, b, e] { generate_slice(out, dist, key, b, e); });
  }
  for (auto& th : pool) th.join();
  return out;
}

}  // namespace kta::engine
