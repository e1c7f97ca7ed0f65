// Expression evaluation: integers stay exact (overflow is an error), floats when either side is.
#include "lang/eval.h"

#include <fmt/format.h>

#include <bit>
#include <cmath>

#include "lang/format.h"

namespace kta::lang {
namespace {

using model::Value;

bool is_int(const Value& v) { return std::holds_alternative<int64_t>(v); }
bool is_num(const Value& v) { return is_int(v) || std::holds_alternative<double>(v); }
double as_double(const Value& v) {
  return is_int(v) ? static_cast<double>(std::get<int64_t>(v)) : std::get<double>(v);
}

const char* kind_of(const Value& v) {
  switch (v.index()) {
    case 0:
      return "an integer";
    case 1:
      return "a number";
    case 2:
      return "a bool";
    default:
      return "a string";
  }
}

struct Evaluator {
  const NameLookup& lookup;

  Value number(const ast::ExprPtr& e) {
    Value v = eval(*e);
    if (!is_num(v))
      throw EvalError(fmt::format("expected a number, found {}", kind_of(v)), e->where);
    return v;
  }
  int64_t integer(const ast::ExprPtr& e) {
    Value v = eval(*e);
    if (!is_int(v))
      throw EvalError(fmt::format("expected an integer, found {}", kind_of(v)), e->where);
    return std::get<int64_t>(v);
  }
  bool boolean(const ast::ExprPtr& e) {
    Value v = eval(*e);
    if (!std::holds_alternative<bool>(v))
      throw EvalError(fmt::format("expected a bool, found {}", kind_of(v)), e->where);
    return std::get<bool>(v);
  }

  Value eval(const ast::Expr& e) {
    return std::visit([&](const auto& n) { return eval_node(n, e); }, e.node);
  }

  Value eval_node(const ast::IntLit& n, const ast::Expr&) { return n.value; }
  Value eval_node(const ast::FloatLit& n, const ast::Expr&) { return n.value; }
  Value eval_node(const ast::StringLit& n, const ast::Expr&) { return n.value; }
  Value eval_node(const ast::BoolLit& n, const ast::Expr&) { return n.value; }
  Value eval_node(const ast::DurationLit& n, const ast::Expr&) { return n.ns; }
  Value eval_node(const ast::SizeLit& n, const ast::Expr&) { return n.bytes; }
  Value eval_node(const ast::Paren& n, const ast::Expr&) { return eval(*n.inner); }
  Value eval_node(const ast::NameRef& n, const ast::Expr& e) {
    if (auto v = lookup(n.name)) return *v;
    throw EvalError(fmt::format("'{}' has no value here", n.name), e.where);
  }
  Value eval_node(const ast::List&, const ast::Expr& e) {
    throw EvalError("a list is not a value here", e.where);
  }
  Value eval_node(const ast::Tuple&, const ast::Expr& e) {
    throw EvalError("a tuple is not a value here", e.where);
  }
  Value eval_node(const ast::Span&, const ast::Expr& e) {
    throw EvalError("'lo..hi' is not a value here", e.where);
  }
  Value eval_node(const ast::Unary& n, const ast::Expr& e) {
    if (n.op == '!') return !boolean(n.operand);
    Value v = number(n.operand);
    if (is_int(v)) {
      int64_t i = std::get<int64_t>(v);
      if (i == INT64_MIN) throw EvalError("integer overflow", e.where);
      return -i;
    }
    return -std::get<double>(v);
  }

  Value eval_node(const ast::Binary& n, const ast::Expr& e) {
    using ast::BinOp;
    if (n.op == BinOp::land) return boolean(n.lhs) && boolean(n.rhs);
    if (n.op == BinOp::lor) return boolean(n.lhs) || boolean(n.rhs);
    if (n.op == BinOp::eq || n.op == BinOp::ne) {
      Value a = eval(*n.lhs), b = eval(*n.rhs);
      bool same = is_num(a) && is_num(b) ? as_double(a) == as_double(b) : a == b;
      if (is_int(a) && is_int(b)) same = std::get<int64_t>(a) == std::get<int64_t>(b);
      return n.op == BinOp::eq ? same : !same;
    }
    Value a = number(n.lhs), b = number(n.rhs);
    if (is_int(a) && is_int(b)) return int_op(n.op, std::get<int64_t>(a), std::get<int64_t>(b), e);
    double x = as_double(a), y = as_double(b);
    switch (n.op) {
      case BinOp::mul:
        return x * y;
      case BinOp::div:
        if (y == 0) throw EvalError("division by zero", e.where);
        return x / y;
      case BinOp::add:
        return x + y;
      case BinOp::sub:
        return x - y;
      case BinOp::lt:
        return x < y;
      case BinOp::le:
        return x <= y;
      case BinOp::gt:
        return x > y;
      case BinOp::ge:
        return x >= y;
      default:
        throw EvalError(fmt::format("operator '{}' needs integers", ast::binop_text(n.op)),
                        e.where);
    }
  }

  Value int_op(ast::BinOp op, int64_t x, int64_t y, const ast::Expr& e) {
    using ast::BinOp;
    int64_t r = 0;
    switch (op) {
      case BinOp::mul:
        if (__builtin_mul_overflow(x, y, &r)) throw EvalError("integer overflow", e.where);
        return r;
      case BinOp::add:
        if (__builtin_add_overflow(x, y, &r)) throw EvalError("integer overflow", e.where);
        return r;
      case BinOp::sub:
        if (__builtin_sub_overflow(x, y, &r)) throw EvalError("integer overflow", e.where);
        return r;
      case BinOp::div:
      case BinOp::mod:
        if (y == 0) throw EvalError("division by zero", e.where);
        if (x == INT64_MIN && y == -1) throw EvalError("integer overflow", e.where);
        return op == BinOp::div ? x / y : x % y;
      case BinOp::shl:
        if (y < 0 || y > 62)
          throw EvalError(fmt::format("shift by {} is out of range 0..62", y), e.where);
        if (x < 0 || (y > 0 && x > (INT64_MAX >> y))) throw EvalError("integer overflow", e.where);
        return x << y;
      case BinOp::shr:
        if (y < 0 || y > 63)
          throw EvalError(fmt::format("shift by {} is out of range 0..63", y), e.where);
        return x >> y;
      case BinOp::lt:
        return x < y;
      case BinOp::le:
        return x <= y;
      case BinOp::gt:
        return x > y;
      case BinOp::ge:
        return x >= y;
      default:
        return int64_t{0};
    }
  }

  Value eval_node(const ast::Call& c, const ast::Expr& e) {
    const std::string& f = c.callee;
    auto want = [&](size_t n) {
      if (c.args.size() != n)
        throw EvalError(fmt::format("'{}' takes {} arguments, found {}", f, n, c.args.size()),
                        e.where);
    };
    if (f == "ceil_div" || f == "align_up") {
      want(2);
      int64_t a = integer(c.args[0].value), b = integer(c.args[1].value);
      if (b == 0) throw EvalError("division by zero", e.where);
      if (a < 0 || b < 0)
        throw EvalError(fmt::format("'{}' needs non-negative arguments", f), e.where);
      int64_t q = a / b + (a % b != 0);
      if (f == "ceil_div") return q;
      int64_t r = 0;
      if (__builtin_mul_overflow(q, b, &r)) throw EvalError("integer overflow", e.where);
      return r;
    }
    if (f == "min" || f == "max") {
      if (c.args.empty())
        throw EvalError(fmt::format("'{}' needs at least one argument", f), e.where);
      Value best = number(c.args[0].value);
      for (size_t i = 1; i < c.args.size(); ++i) {
        Value v = number(c.args[i].value);
        bool better;
        if (is_int(v) && is_int(best))
          better = f == "min" ? std::get<int64_t>(v) < std::get<int64_t>(best)
                              : std::get<int64_t>(v) > std::get<int64_t>(best);
        else
          better = f == "min" ? as_double(v) < as_double(best) : as_double(v) > as_double(best);
        if (better) best = v;
      }
      return best;
    }
    if (f == "log2") {
      want(1);
      int64_t a = integer(c.args[0].value);
      if (a <= 0 || (a & (a - 1)) != 0)
        throw EvalError(fmt::format("log2 of {}, which is not a power of two", a), e.where);
      return static_cast<int64_t>(std::countr_zero(static_cast<uint64_t>(a)));
    }
    if (f == "abs") {
      want(1);
      Value v = number(c.args[0].value);
      if (is_int(v)) {
        int64_t i = std::get<int64_t>(v);
        if (i == INT64_MIN) throw EvalError("integer overflow", e.where);
        return i < 0 ? -i : i;
      }
      return std::fabs(std::get<double>(v));
    }
    if (f == "sqrt") {
      want(1);
      double a = as_double(number(c.args[0].value));
      if (a < 0) throw EvalError(fmt::format("sqrt of {}, which is negative", a), e.where);
      return std::sqrt(a);
    }
    throw EvalError(fmt::format("'{}' is not a function that gives a value", f), e.where);
  }
};

Value eval_at(const model::ExprRef& e, const model::ShapePoint& point, const model::Task& task) {
  if (!e) throw EvalError("no expression");
  NameLookup lookup = [&](const std::string& name) -> std::optional<Value> {
    for (const auto& [n, v] : point)
      if (n == name) return Value(v);
    for (const model::Param& p : task.params)
      if (p.name == name && p.fixed) return *p.fixed;
    return std::nullopt;
  };
  return evaluate(*e, lookup);
}

}  // namespace

Value evaluate(const ast::Expr& e, const NameLookup& lookup) { return Evaluator{lookup}.eval(e); }

std::string value_text(const Value& v) {
  return std::visit(
      [](const auto& x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::string>)
          return "\"" + x + "\"";
        else if constexpr (std::is_same_v<T, bool>)
          return x ? "true" : "false";
        else
          return fmt::format("{}", x);
      },
      v);
}

int64_t eval_int(const model::ExprRef& e, const model::ShapePoint& point, const model::Task& task) {
  Value v = eval_at(e, point, task);
  if (!is_int(v))
    throw EvalError(fmt::format("expected an integer, found {}", kind_of(v)), e->where);
  return std::get<int64_t>(v);
}

double eval_number(const model::ExprRef& e, const model::ShapePoint& point,
                   const model::Task& task) {
  Value v = eval_at(e, point, task);
  if (!is_num(v)) throw EvalError(fmt::format("expected a number, found {}", kind_of(v)), e->where);
  return as_double(v);
}

model::Tolerance tolerance_at(const model::Tolerance& tol, const model::ShapePoint& point,
                              const model::Task& task) {
  model::Tolerance out = tol;
  auto field = [&](const model::ExprRef& e, const char* key, double max, double& value) {
    if (!e) return;
    value = eval_number(e, point, task);
    if (!(value >= 0 && value <= max))
      throw EvalError(fmt::format("'{}' must be {}, found {}", key,
                                  max > 1 ? "at least 0" : "between 0 and 1", value),
                      e->where);
  };
  field(tol.atol_expr, "atol", 1e300, out.atol);
  field(tol.rtol_expr, "rtol", 1e300, out.rtol);
  field(tol.max_mismatch_expr, "max_mismatch", 1, out.max_mismatch);
  out.atol_expr = out.rtol_expr = out.max_mismatch_expr = nullptr;
  return out;
}

std::string tolerance_text(const model::Tolerance& t) {
  auto field = [](const model::ExprRef& e, double v) {
    return e ? format_expr(*e) : fmt::format("{:g}", v);
  };
  std::string s =
      fmt::format("atol {}, rtol {}", field(t.atol_expr, t.atol), field(t.rtol_expr, t.rtol));
  if (t.max_mismatch > 0 || t.max_mismatch_expr)
    s += ", max_mismatch " + field(t.max_mismatch_expr, t.max_mismatch);
  return s;
}

}  // namespace kta::lang
