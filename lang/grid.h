// Shape grids: axes (lists, ranges, pow2), derived axes and `where` filters, expanded into
// concrete points.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lang/ast.h"
#include "lang/eval.h"
#include "lang/model.h"

namespace kta::lang {

struct GridAxis {
  std::string name;
  bool is_param = true;         // helper axes feed later axes and filters but not the points
  std::vector<int64_t> values;  // a value axis
  model::ExprRef derived;       // a derived axis: evaluated at each point
  // A tuple axis `(D, H, W) in [(3, 5, 7), ...]`: its params (`name` unused) and their value
  // tuples, one digit of the product (members are always params).
  std::vector<std::string> members;
  std::vector<std::vector<int64_t>> tuples;
  bool is_tuple() const { return !members.empty(); }
  size_t size() const { return is_tuple() ? tuples.size() : values.size(); }
};

struct GridSpec {
  std::vector<GridAxis> axes;  // cartesian product in declaration order
  std::vector<model::ExprRef> filters;
};

// Thrown when the product of the value axes exceeds the cap; nothing is expanded then.
struct GridTooLarge {
  size_t product;
};

// Expands a grid. `outer` binds names other than axes (fixed params). Derived axes and filters
// that cannot be evaluated throw EvalError.
std::vector<model::ShapePoint> expand_grid(const GridSpec& spec, const NameLookup& outer,
                                           size_t cap);

// The values of `range(start, stop, step)` (stop exclusive) and of `pow2(lo..hi)`; empty when the
// arguments describe no values. Throw EvalError past `cap` values.
std::vector<int64_t> range_values(int64_t start, int64_t stop, int64_t step, size_t cap);
std::vector<int64_t> pow2_values(int64_t lo, int64_t hi);

// `N=4096, M=128` for messages.
std::string point_text(const model::ShapePoint& p);

}  // namespace kta::lang
