// Grid expansion: an odometer over the value axes; derived axes and filters per point.
#include "lang/grid.h"

#include <fmt/format.h>

namespace kta::lang {

std::vector<int64_t> range_values(int64_t start, int64_t stop, int64_t step, size_t cap) {
  std::vector<int64_t> out;
  if (step == 0) return out;
  for (int64_t v = start; step > 0 ? v < stop : v > stop;) {
    if (out.size() >= cap) throw EvalError(fmt::format("range has more than {} values", cap));
    out.push_back(v);
    if (__builtin_add_overflow(v, step, &v)) break;
  }
  return out;
}

std::vector<int64_t> pow2_values(int64_t lo, int64_t hi) {
  std::vector<int64_t> out;
  if (lo < 0 || hi > 62 || lo > hi) return out;
  for (int64_t k = lo; k <= hi; ++k) out.push_back(int64_t{1} << k);
  return out;
}

std::string point_text(const model::ShapePoint& p) {
  std::string out;
  for (const auto& [name, value] : p)
    out += fmt::format("{}{}={}", out.empty() ? "" : ", ", name, value);
  return out.empty() ? "{}" : out;
}

std::vector<model::ShapePoint> expand_grid(const GridSpec& spec, const NameLookup& outer,
                                           size_t cap) {
  size_t product = 1;
  for (const GridAxis& a : spec.axes) {
    if (a.derived) continue;
    if (a.size() == 0) return {};
    if (a.size() > cap || product > cap / a.size()) throw GridTooLarge{cap + 1};
    product *= a.size();
  }
  std::vector<model::ShapePoint> out;
  std::vector<size_t> index(spec.axes.size(), 0);
  // The value of each axis at the current point: one per member for a tuple axis.
  std::vector<std::vector<int64_t>> current(spec.axes.size());
  NameLookup lookup = [&](const std::string& name) -> std::optional<model::Value> {
    for (size_t i = 0; i < spec.axes.size(); ++i) {
      const GridAxis& a = spec.axes[i];
      if (current[i].empty()) continue;  // not evaluated yet at this point
      if (!a.is_tuple()) {
        if (a.name == name) return model::Value(current[i][0]);
        continue;
      }
      for (size_t m = 0; m < a.members.size(); ++m)
        if (a.members[m] == name) return model::Value(current[i][m]);
    }
    return outer(name);
  };
  for (size_t n = 0; n < product; ++n) {
    // Odometer: the last value axis turns fastest, so points come in declaration order.
    size_t rest = n;
    for (size_t i = spec.axes.size(); i-- > 0;) {
      if (spec.axes[i].derived) continue;
      index[i] = rest % spec.axes[i].size();
      rest /= spec.axes[i].size();
    }
    for (size_t i = 0; i < spec.axes.size(); ++i) current[i].clear();
    for (size_t i = 0; i < spec.axes.size(); ++i) {
      const GridAxis& a = spec.axes[i];
      if (a.is_tuple()) {
        current[i] = a.tuples[index[i]];
        continue;
      }
      if (!a.derived) {
        current[i] = {a.values[index[i]]};
        continue;
      }
      model::Value v = evaluate(*a.derived, lookup);
      if (!std::holds_alternative<int64_t>(v))
        throw EvalError(fmt::format("derived axis '{}' must be an integer", a.name),
                        a.derived->where);
      current[i] = {std::get<int64_t>(v)};
    }
    bool keep = true;
    for (const model::ExprRef& f : spec.filters) {
      model::Value v = evaluate(*f, lookup);
      if (!std::holds_alternative<bool>(v))
        throw EvalError("a 'where' filter must be a bool", f->where);
      if (!std::get<bool>(v)) {
        keep = false;
        break;
      }
    }
    if (!keep) continue;
    model::ShapePoint p;
    for (size_t i = 0; i < spec.axes.size(); ++i) {
      const GridAxis& a = spec.axes[i];
      for (size_t m = 0; m < a.members.size(); ++m) p.emplace_back(a.members[m], current[i][m]);
      if (!a.is_tuple() && a.is_param) p.emplace_back(a.name, current[i][0]);
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace kta::lang
