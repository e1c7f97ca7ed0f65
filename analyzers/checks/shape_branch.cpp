#include "analyzers/checks/shape_branch.h"

#include <clang/AST/ParentMapContext.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <fmt/format.h>

#include "analyzers/specialization.h"

namespace kta::analyzers {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

// `if (n == 4096) {...}`, `if (rows != 1024) return;`: an if inside a function.
auto if_in_function() { return ifStmt(hasAncestor(functionDecl())).bind("if"); }

// `switch (n) { case 4096: ... }`
auto switch_in_function() { return switchStmt(hasAncestor(functionDecl())).bind("switch"); }

// One `size OP constant` test found in a condition.
struct SizeTest {
  const BinaryOperator* op = nullptr;
  const Expr* size_side = nullptr;
  std::string size;
  int64_t value = 0;
};

// Finds the first `size OP constant` comparison in a condition (through && || ! and parens).
std::optional<SizeTest> find_size_test(const Expr* cond, const FunctionFacts& facts,
                                       const ASTContext& ast) {
  cond = cond->IgnoreParenImpCasts();
  if (const auto* un = dyn_cast<UnaryOperator>(cond); un && un->getOpcode() == UO_LNot)
    return find_size_test(un->getSubExpr(), facts, ast);
  const auto* op = dyn_cast<BinaryOperator>(cond);
  if (!op) return std::nullopt;
  if (op->isLogicalOp()) {
    auto lhs = find_size_test(op->getLHS(), facts, ast);
    auto rhs = find_size_test(op->getRHS(), facts, ast);
    // `if (blocks > kMax && hipMalloc(...) != hipSuccess) return 2;` exits only when the other
    // condition holds too, whatever the size: a conjunction is a size test only when both of
    // its sides are.
    if (op->getOpcode() == BO_LAnd && (!lhs || !rhs)) return std::nullopt;
    return lhs ? lhs : rhs;
  }
  if (!op->isComparisonOp()) return std::nullopt;
  for (auto [size_side, const_side] :
       {std::pair{op->getLHS(), op->getRHS()}, std::pair{op->getRHS(), op->getLHS()}}) {
    if (!mentions_size(size_side, facts) || mentions_size(const_side, facts)) continue;
    // `n % 4 == 0`, `(n & 7) != 0`: alignment tests are general dispatch, not a shape.
    if (const auto* arith = dyn_cast<BinaryOperator>(size_side->IgnoreParenImpCasts());
        arith && (arith->getOpcode() == BO_Rem || arith->getOpcode() == BO_And))
      continue;
    auto value = constant_value(const_side, ast);
    if (!value || *value < ShapeSet::kMinValue) continue;
    // `if (blocks > 0x7fffffff) return error;`: a bound of the launch's integer types, which no
    // tensor dimension reaches, not a shape.
    if (*value >= int64_t{0x7fffffff}) continue;
    return SizeTest{op, size_side, size_name(size_side, facts), *value};
  }
  return std::nullopt;
}

}  // namespace

void ShapeBranchCheck::register_matchers(MatchFinder& finder) {
  finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, if_in_function()), this);
  finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, switch_in_function()), this);
}

void ShapeBranchCheck::check(const MatchFinder::MatchResult& result) {
  if (const auto* s = result.Nodes.getNodeAs<IfStmt>("if")) on_if(s, *result.Context);
  if (const auto* s = result.Nodes.getNodeAs<SwitchStmt>("switch")) on_switch(s, *result.Context);
}

void ShapeBranchCheck::on_if(const IfStmt* s, ASTContext& ast) {
  const FunctionDecl* fn = enclosing_function(s, ast);
  if (!fn || !s->getCond() || s->isConstexpr()) return;
  auto test = find_size_test(s->getCond(), ctx().facts(fn), ast);
  if (!test || !judged(s, test->size_side, test->value, fn)) return;
  std::string cond =
      fmt::format("'{}' {} {}", test->size, test->op->getOpcodeStr().str(), test->value);
  bool equality = test->op->getOpcode() == BO_EQ;
  if (s->getElse()) {
    // `if (n == 4096) fast(); else general();` keeps a general path; `else return;` does not.
    if (equality && only_exits(s->getElse()) && !has_code_after(s, ast))
      report(ast, s->getBeginLoc(),
             fmt::format("work happens only when {}: the else branch only leaves, so other sizes "
                         "do nothing; add a general fallback",
                         cond));
    return;
  }
  if (only_exits(s->getThen())) {
    // `if (n != 4096) return;`: the work below runs for one size only. (`if (n == 4096)
    // return;` skips a visible size, which is no overfit.)
    if (equality) return;
    report(ast, s->getBeginLoc(),
           fmt::format("early exit unless {} holds: other sizes skip the work; keep a general path "
                       "for every size",
                       fmt::format("'{}' {} {}", test->size,
                                   BinaryOperator::getOpcodeStr(
                                       BinaryOperator::negateComparisonOp(test->op->getOpcode()))
                                       .str(),
                                   test->value)));
    return;
  }
  // `if (n == 4096) { fast(); return; } general();` and `if (n == 4096) prefetch(); work();`
  // keep a general path after the branch.
  if (has_code_after(s, ast)) return;
  if (test->op->getOpcode() == BO_NE) return;
  report(ast, s->getBeginLoc(),
         fmt::format("work happens only when {}: the branch has no else and nothing follows it, so "
                     "other sizes do nothing; add a general fallback",
                     cond));
}

bool ShapeBranchCheck::judged(const Stmt* s, const Expr* size_side, int64_t value,
                              const FunctionDecl* fn) {
  if (is_device_function(fn)) return true;
  LaunchScope& scope = ctx().scope();
  if (scope.host(fn).launches.empty()) return false;  // a host helper: nothing is launched
  return LaunchScope::contains_launch(s) || scope.mentions_launch_var(size_side, fn) ||
         ctx().shapes().origin(value).has_value();
}

void ShapeBranchCheck::on_switch(const SwitchStmt* s, ASTContext& ast) {
  const FunctionDecl* fn = enclosing_function(s, ast);
  if (!fn || !s->getCond() || !mentions_size(s->getCond(), ctx().facts(fn))) return;
  std::vector<int64_t> cases;
  for (const SwitchCase* c = s->getSwitchCaseList(); c; c = c->getNextSwitchCase()) {
    if (isa<DefaultStmt>(c)) return;  // the default is the general path
    if (const auto* cs = dyn_cast<CaseStmt>(c))
      if (auto v = constant_value(cs->getLHS(), ast)) cases.push_back(*v);
  }
  bool shape_like = false, judged_case = false;
  for (int64_t v : cases) {
    shape_like = shape_like || v >= ShapeSet::kMinValue;
    judged_case = judged_case || (v >= ShapeSet::kMinValue && judged(s, s->getCond(), v, fn));
  }
  if (!shape_like || !judged_case) return;
  std::string listed;
  for (auto it = cases.rbegin(); it != cases.rend(); ++it)
    listed += (listed.empty() ? "" : ", ") + std::to_string(*it);
  report(ast, s->getBeginLoc(),
         fmt::format("switch on size '{}' handles only {} and has no default: other sizes are "
                     "not handled",
                     size_name(s->getCond(), ctx().facts(fn)), listed));
}

}  // namespace kta::analyzers
