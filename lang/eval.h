// Evaluation of model expressions (tensor dims, launch geometry, bytes/flops) at a shape point.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "lang/ast.h"
#include "lang/model.h"

namespace kta::lang {

// Thrown for a name that is not bound, a division by zero or a value of the wrong kind; sema
// rules these out for checked tasks at every visible point.
struct EvalError : std::runtime_error {
  EvalError(const std::string& what, SourceRange at = {}) : std::runtime_error(what), where(at) {}
  SourceRange where;  // the subexpression that failed
};

// Evaluate a model expression at a shape point (task's fixed params and constants in scope).
int64_t eval_int(const model::ExprRef&, const model::ShapePoint&, const model::Task&);
double eval_number(const model::ExprRef&, const model::ShapePoint&, const model::Task&);

// A tolerance with its param expressions evaluated at `p`; throws EvalError when one cannot be
// evaluated or is out of range (atol, rtol >= 0; max_mismatch in 0..1).
model::Tolerance tolerance_at(const model::Tolerance&, const model::ShapePoint& p,
                              const model::Task&);
// "atol 2.56e-05, rtol 1e-05" (and ", max_mismatch 0.01" when set); a field over params is shown
// as written ("atol 1e-07 * K") until tolerance_at evaluates it.
std::string tolerance_text(const model::Tolerance&);

// The evaluator behind both: `lookup` binds names (params, axes, constants) to values.
using NameLookup = std::function<std::optional<model::Value>(const std::string&)>;
model::Value evaluate(const ast::Expr&, const NameLookup& lookup);
// The value as text for messages: 42, 1.5, true, "s".
std::string value_text(const model::Value&);

}  // namespace kta::lang
