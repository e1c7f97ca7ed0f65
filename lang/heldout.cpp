// Held-out points: explicit ones, or std.heldout.perturb's deterministic draws from the visible
// grid (edge, scale-up, scale-down, alignment-stress, asymmetric), keyed by a run secret.
#include "lang/heldout.h"

#include <algorithm>
#include <map>
#include <set>

#include "lang/eval.h"
#include "lang/hash.h"

namespace kta::lang {
namespace {

// Where a move's random choices come from: the run's generator when drawing, every choice in
// turn when previewing what a generator can draw (Enumerator). One code path does both, so the
// preview follows the generator's actual rules.
struct Chooser {
  virtual ~Chooser() = default;
  virtual size_t below(size_t n) = 0;  // a choice in [0, n); 0 when n is 0
};

// splitmix64: small, fast, and good enough to spread a 64-bit seed.
struct Rng : Chooser {
  explicit Rng(uint64_t seed) : state(seed) {}
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  size_t below(size_t n) override { return n ? size_t(next() % n) : 0; }
};

// Walks every sequence of choices a draw can make, depth first: run the draw, then next().
class Enumerator : public Chooser {
 public:
  size_t below(size_t n) override {
    if (n == 0) return 0;
    if (pos_ < path_.size()) {
      limit_[pos_] = n;
      return path_[pos_++];
    }
    path_.push_back(0);
    limit_.push_back(n);
    ++pos_;
    return 0;
  }
  // Moves to the next sequence; false after the last.
  bool next() {
    pos_ = 0;
    while (!path_.empty() && path_.back() + 1 >= limit_.back()) {
      path_.pop_back();
      limit_.pop_back();
    }
    if (path_.empty()) return false;
    ++path_.back();
    return true;
  }

 private:
  std::vector<size_t> path_, limit_;
  size_t pos_ = 0;
};

bool is_prime(int64_t n) {
  if (n < 2) return false;
  for (int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

constexpr int64_t kMaxValue = int64_t(1) << 40;
constexpr int64_t kEdges[] = {1, 2, 3, 7, 17, 31, 127};
constexpr int64_t kOffsets[] = {1, 3, 5, 7, 11, 13, 17, 31};
constexpr int64_t kLarge = int64_t(1) << 24;  // past this, alignment-stress skips the prime search

int64_t clamp_value(int64_t v) { return std::clamp<int64_t>(v, 1, kMaxValue); }

int64_t next_prime(int64_t v) {
  int64_t p = std::max<int64_t>(v + 1, 2);
  while (!is_prime(p)) ++p;
  return p;
}

// The units a move changes: each free (not derived) param alone, or a tuple axis's members
// together. Indices into the point.
using Units = std::vector<std::vector<size_t>>;

// One move applied to one or two units. Every member of a unit gets the same draw (one edge
// value, one factor, one offset), so a tuple axis keeps its members' proportions; with single
// params the choices are drawn exactly as for a plain axis.
model::ShapePoint perturb_one(const model::ShapePoint& base, const Units& units, size_t move,
                              Chooser& c) {
  model::ShapePoint p = base;
  if (units.empty()) return p;
  size_t ua = c.below(units.size());
  auto each = [&p, &units](size_t u, auto&& f) {
    for (size_t i : units[u]) p[i].second = f(p[i].second);
  };
  auto any = [&p, &units](size_t u, auto&& pred) {
    return std::any_of(units[u].begin(), units[u].end(),
                       [&](size_t i) { return pred(p[i].second); });
  };
  switch (move % 5) {
    case 0: {  // edge
      int64_t e = kEdges[c.below(7)];
      each(ua, [e](int64_t) { return e; });
      break;
    }
    case 1: {  // scale-up
      bool grows = any(ua, [](int64_t v) { return v <= kMaxValue / 4; });
      int64_t k = grows ? int64_t(2 + c.below(3)) : 1;
      each(ua, [k](int64_t v) { return clamp_value(v > kMaxValue / 4 ? v : v * k); });
      break;
    }
    case 2: {  // scale-down
      int64_t k = int64_t(2 + c.below(3));
      each(ua, [k](int64_t v) { return clamp_value(v / k); });
      break;
    }
    case 3: {  // alignment-stress: an odd, prime or non-multiple-of-block size near the value
      switch (c.below(3)) {
        case 0: {
          int64_t off = kOffsets[c.below(8)];
          each(ua, [off](int64_t v) { return clamp_value(v + off); });
          break;
        }
        case 1: {
          int64_t off = kOffsets[c.below(8)];
          each(ua, [off](int64_t v) { return clamp_value(v - off); });
          break;
        }
        default: {
          bool large = any(ua, [](int64_t v) { return v > kLarge; });
          int64_t k = large ? int64_t(c.below(8)) : 0;
          each(ua,
               [k](int64_t v) { return v > kLarge ? clamp_value(v + 1 + 2 * k) : next_prime(v); });
          break;
        }
      }
      break;
    }
    default: {  // asymmetric
      if (units.size() < 2) {
        int64_t d = c.below(2) ? 1 : -1;
        each(ua, [d](int64_t v) { return clamp_value(v + d); });
        break;
      }
      size_t ub = c.below(units.size());
      if (ub == ua) ub = (ua + 1) % units.size();
      each(ua, [](int64_t v) { return clamp_value(v > kMaxValue / 2 ? v : v * 2); });
      each(ub, [](int64_t v) { return clamp_value(v / 2); });
      break;
    }
  }
  return p;
}

// The units of a task's points: derived params are recomputed, never drawn.
Units units_of(const model::Task& task, const model::HeldoutGenerator& g) {
  Units units;
  const model::ShapePoint& first = task.visible.front();
  std::map<std::string, size_t> tuple_of;
  for (size_t t = 0; t < g.tuples.size(); ++t)
    for (const std::string& m : g.tuples[t]) tuple_of[m] = t;
  std::map<size_t, size_t> unit_of_tuple;
  for (size_t i = 0; i < first.size(); ++i) {
    bool derived = false;
    for (const auto& [name, e] : g.derived) derived |= name == first[i].first;
    if (derived) continue;
    auto t = tuple_of.find(first[i].first);
    if (t == tuple_of.end()) {
      units.push_back({i});
    } else if (auto [u, fresh] = unit_of_tuple.emplace(t->second, units.size()); fresh) {
      units.push_back({i});
    } else {
      units[u->second].push_back(i);
    }
  }
  return units;
}

// One candidate: a visible point and a move, every choice from `c`.
model::ShapePoint draw(const model::Task& task, const Units& units, size_t move, Chooser& c) {
  return perturb_one(task.visible[c.below(task.visible.size())], units, move, c);
}

// A drawn candidate with its derived params recomputed, when it passes the grid's filters and is
// not a visible point.
std::optional<model::ShapePoint> finish(const model::Task& task, const model::HeldoutGenerator& g,
                                        model::ShapePoint p) {
  try {
    for (const auto& [name, e] : g.derived)
      for (auto& [n, v] : p)
        if (n == name) v = eval_int(e, p, task);
    NameLookup lookup = [&](const std::string& name) -> std::optional<model::Value> {
      for (const auto& [n, v] : p)
        if (n == name) return model::Value(v);
      for (const model::Param& prm : task.params)
        if (prm.name == name && prm.fixed) return *prm.fixed;
      return std::nullopt;
    };
    for (const model::ExprRef& f : g.filters) {
      model::Value v = evaluate(*f, lookup);
      if (!std::holds_alternative<bool>(v) || !std::get<bool>(v)) return std::nullopt;
    }
  } catch (const EvalError&) {
    return std::nullopt;  // a helper axis or filter this point cannot satisfy
  }
  if (std::find(task.visible.begin(), task.visible.end(), p) != task.visible.end())
    return std::nullopt;
  return p;
}

bool perturbs(const model::Task& task) {
  return task.heldout_generator && task.heldout_generator->name == "perturb" &&
         !task.visible.empty();
}

}  // namespace

std::vector<model::ShapePoint> expand_heldout(const model::Task& task, uint64_t secret) {
  if (!perturbs(task)) return task.heldout;
  const model::HeldoutGenerator& g = *task.heldout_generator;
  // Seed: the secret and the visible grid, so that two tasks with one secret draw differently.
  uint64_t h = fnv1a64(task.name);
  for (const auto& point : task.visible)
    for (const auto& [name, value] : point) {
      h = fnv1a64(name, h);
      h = fnv1a64(std::string_view(reinterpret_cast<const char*>(&value), sizeof value), h);
    }
  Rng rng{h ^ (secret * 0x9e3779b97f4a7c15ull) ^ secret};
  Units units = units_of(task, g);
  std::vector<model::ShapePoint> out;
  size_t tries = 0, limit = size_t(g.count) * 64 + 64;
  for (size_t move = 0; out.size() < size_t(g.count) && tries < limit; ++tries) {
    auto p = finish(task, g, draw(task, units, move, rng));
    if (!p || std::find(out.begin(), out.end(), *p) != out.end()) continue;
    out.push_back(std::move(*p));
    ++move;
  }
  return out;
}

std::optional<HeldoutPreview> preview_heldout(const model::Task& task, size_t cap) {
  if (!perturbs(task)) return std::nullopt;
  const model::HeldoutGenerator& g = *task.heldout_generator;
  Units units = units_of(task, g);
  HeldoutPreview out;
  std::set<model::ShapePoint> seen;
  // Moves cycle in order and advance only on a kept point, so a count below five never reaches
  // the later moves.
  size_t moves = std::min<size_t>(size_t(g.count), 5);
  size_t draws = 0;
  for (size_t move = 0; move < moves && !out.truncated; ++move) {
    Enumerator e;
    do {
      if (++draws > cap) {
        out.truncated = true;
        break;
      }
      if (auto p = finish(task, g, draw(task, units, move, e)); p && seen.insert(*p).second)
        out.points.push_back(std::move(*p));
    } while (e.next());
  }
  for (const model::ShapePoint& p : out.points) {
    for (const auto& [name, v] : p) {
      auto it = std::find_if(out.ranges.begin(), out.ranges.end(),
                             [&](const ParamRange& r) { return r.param == name; });
      if (it == out.ranges.end()) {
        out.ranges.push_back({name, v, v});
      } else {
        it->lo = std::min(it->lo, v);
        it->hi = std::max(it->hi, v);
      }
    }
  }
  return out;
}

}  // namespace kta::lang
