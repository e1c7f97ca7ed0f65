// Held-out points: explicit ones, or std.heldout.perturb's deterministic draws from the visible
// grid (edge, scale-up, scale-down, alignment-stress, asymmetric), keyed by a run secret.
#include "lang/heldout.h"

#include <algorithm>

#include "lang/eval.h"
#include "lang/hash.h"

namespace kta::lang {
namespace {

// splitmix64: small, fast, and good enough to spread a 64-bit seed.
struct Rng {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) { return n ? size_t(next() % n) : 0; }
};

bool is_prime(int64_t n) {
  if (n < 2) return false;
  for (int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

constexpr int64_t kMaxValue = int64_t(1) << 40;

int64_t clamp_value(int64_t v) { return std::clamp<int64_t>(v, 1, kMaxValue); }

// One alignment-stress value near v: an odd, prime or non-multiple-of-block size.
int64_t stress(int64_t v, Rng& rng) {
  static constexpr int64_t kOffsets[] = {1, 3, 5, 7, 11, 13, 17, 31};
  switch (rng.below(3)) {
    case 0:
      return clamp_value(v + kOffsets[rng.below(8)]);
    case 1:
      return clamp_value(v - kOffsets[rng.below(8)]);
    default: {
      if (v > (int64_t(1) << 24)) return clamp_value(v + 1 + 2 * int64_t(rng.below(8)));
      int64_t p = std::max<int64_t>(v + 1, 2);
      while (!is_prime(p)) ++p;
      return p;
    }
  }
}

model::ShapePoint perturb_one(const model::ShapePoint& base, const std::vector<size_t>& free,
                              size_t move, Rng& rng) {
  model::ShapePoint p = base;
  if (free.empty()) return p;
  size_t a = free[rng.below(free.size())];
  int64_t& v = p[a].second;
  switch (move % 5) {
    case 0: {  // edge
      static constexpr int64_t kEdges[] = {1, 2, 3, 7, 17, 31, 127};
      v = kEdges[rng.below(7)];
      break;
    }
    case 1:
      v = clamp_value(v > kMaxValue / 4 ? v : v * int64_t(2 + rng.below(3)));
      break;  // scale-up
    case 2:
      v = clamp_value(v / int64_t(2 + rng.below(3)));
      break;  // scale-down
    case 3:
      v = stress(v, rng);
      break;    // alignment
    default: {  // asymmetric
      if (free.size() < 2) {
        v = clamp_value(v + (rng.below(2) ? 1 : -1));
        break;
      }
      size_t b = free[rng.below(free.size())];
      if (b == a)
        b = free[(std::find(free.begin(), free.end(), a) - free.begin() + 1) % free.size()];
      v = clamp_value(v > kMaxValue / 2 ? v : v * 2);
      p[b].second = clamp_value(p[b].second / 2);
      break;
    }
  }
  return p;
}

}  // namespace

std::vector<model::ShapePoint> expand_heldout(const model::Task& task, uint64_t secret) {
  if (!task.heldout_generator) return task.heldout;
  const model::HeldoutGenerator& g = *task.heldout_generator;
  if (g.name != "perturb" || task.visible.empty()) return task.heldout;
  // Seed: the secret and the visible grid, so that two tasks with one secret draw differently.
  uint64_t h = fnv1a64(task.name);
  for (const auto& point : task.visible)
    for (const auto& [name, value] : point) {
      h = fnv1a64(name, h);
      h = fnv1a64(std::string_view(reinterpret_cast<const char*>(&value), sizeof value), h);
    }
  Rng rng{h ^ (secret * 0x9e3779b97f4a7c15ull) ^ secret};
  // Derived params are recomputed, never drawn.
  std::vector<size_t> free;
  const model::ShapePoint& first = task.visible.front();
  for (size_t i = 0; i < first.size(); ++i) {
    bool derived = false;
    for (const auto& [name, e] : g.derived) derived |= name == first[i].first;
    if (!derived) free.push_back(i);
  }
  std::vector<model::ShapePoint> out;
  size_t tries = 0, limit = size_t(g.count) * 64 + 64;
  for (size_t move = 0; out.size() < size_t(g.count) && tries < limit; ++tries) {
    model::ShapePoint p =
        perturb_one(task.visible[rng.below(task.visible.size())], free, move, rng);
    try {
      for (const auto& [name, e] : g.derived)
        for (auto& [n, v] : p)
          if (n == name) v = eval_int(e, p, task);
      bool keep = true;
      for (const model::ExprRef& f : g.filters) {
        NameLookup lookup = [&](const std::string& name) -> std::optional<model::Value> {
          for (const auto& [n, v] : p)
            if (n == name) return model::Value(v);
          for (const model::Param& prm : task.params)
            if (prm.name == name && prm.fixed) return *prm.fixed;
          return std::nullopt;
        };
        model::Value v = evaluate(*f, lookup);
        keep &= std::holds_alternative<bool>(v) && std::get<bool>(v);
      }
      if (!keep) continue;
    } catch (const EvalError&) {
      continue;  // a helper axis or filter this point cannot satisfy
    }
    if (std::find(task.visible.begin(), task.visible.end(), p) != task.visible.end()) continue;
    if (std::find(out.begin(), out.end(), p) != out.end()) continue;
    out.push_back(std::move(p));
    ++move;
  }
  return out;
}

}  // namespace kta::lang
