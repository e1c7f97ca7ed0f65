#include "analyzers/specialization.h"

#include <clang/AST/ParentMapContext.h>

#include "analyzers/shapes.h"

namespace kta::analyzers {
namespace {

using namespace clang;

bool is_exit(const Stmt* s) {
  return isa<ReturnStmt>(s) || isa<BreakStmt>(s) || isa<ContinueStmt>(s);
}

// The statements after `s` in its enclosing block.
std::vector<const Stmt*> statements_after(const Stmt* s, ASTContext& ast) {
  std::vector<const Stmt*> out;
  DynTypedNodeList parents = ast.getParents(*s);
  const auto* block = parents.empty() ? nullptr : parents[0].get<CompoundStmt>();
  if (!block) return out;
  bool after = false;
  for (const Stmt* child : block->body()) {
    if (after) out.push_back(child);
    if (child == s) after = true;
  }
  return out;
}

// Ends by leaving: `return`, or a block whose last statement is one.
bool ends_by_leaving(const Stmt* s) {
  if (is_exit(s)) return true;
  const auto* block = dyn_cast<CompoundStmt>(s);
  return block && !block->body_empty() && is_exit(block->body_back());
}

// The sizes of every `size == constant` test of a condition (through && || and parentheses).
void equality_tests(const Expr* cond, const FunctionFacts& facts, const ASTContext& ast,
                    std::vector<int64_t>& out) {
  const auto* op = dyn_cast<BinaryOperator>(cond->IgnoreParenImpCasts());
  if (!op) return;
  if (op->isLogicalOp()) {
    equality_tests(op->getLHS(), facts, ast, out);
    equality_tests(op->getRHS(), facts, ast, out);
    return;
  }
  if (op->getOpcode() != BO_EQ) return;
  for (auto [size_side, const_side] :
       {std::pair{op->getLHS(), op->getRHS()}, std::pair{op->getRHS(), op->getLHS()}}) {
    if (!mentions_size(size_side, facts) || mentions_size(const_side, facts)) continue;
    if (auto v = constant_value(const_side, ast); v && *v >= ShapeSet::kMinValue) {
      out.push_back(*v);
      return;
    }
  }
}

}  // namespace

bool only_exits(const Stmt* s) {
  if (is_exit(s)) return true;
  const auto* block = dyn_cast<CompoundStmt>(s);
  if (!block || block->body_empty() || !is_exit(block->body_back())) return false;
  for (const Stmt* child : block->body())
    if (!is_exit(child) && !isa<CallExpr>(child)) return false;
  return true;
}

bool has_code_after(const Stmt* s, ASTContext& ast) {
  for (const Stmt* child : statements_after(s, ast))
    if (!isa<NullStmt>(child) && !isa<ReturnStmt>(child)) return true;
  return false;
}

const Stmt* general_fallback(const IfStmt* s, ASTContext& ast, const FunctionFacts& facts) {
  if (const Stmt* other = s->getElse())
    return !only_exits(other) && mentions_size(other, facts) ? other : nullptr;
  if (!ends_by_leaving(s->getThen())) return nullptr;
  for (const Stmt* next : statements_after(s, ast))
    if (!only_exits(next) && mentions_size(next, facts)) return next;
  return nullptr;
}

std::optional<Specialization> enclosing_specialization(const Stmt* s, ASTContext& ast,
                                                       FactsCache& facts) {
  const FunctionDecl* fn = enclosing_function(s, ast);
  if (!fn) return std::nullopt;
  const FunctionFacts& f = facts.get(fn);
  const Stmt* node = s;
  DynTypedNodeList parents = ast.getParents(*s);
  while (!parents.empty()) {
    const Stmt* parent = parents[0].get<Stmt>();
    if (!parent) return std::nullopt;
    const auto* branch = dyn_cast<IfStmt>(parent);
    if (branch && branch->getThen() == node && branch->getCond() && !branch->isConstexpr()) {
      Specialization spec{branch, {}};
      equality_tests(branch->getCond(), f, ast, spec.values);
      if (!spec.values.empty() && general_fallback(branch, ast, f)) return spec;
    }
    node = parent;
    parents = ast.getParents(*parent);
  }
  return std::nullopt;
}

bool specialization_explains(const Specialization& spec, int64_t value) {
  if (value <= 0) return false;
  for (int64_t v : spec.values)
    if (v == value || v % value == 0 || value % v == 0) return true;
  return false;
}

}  // namespace kta::analyzers
