#include "analyzers/checks/hardcoded_warp_size.h"

#include <clang/ASTMatchers/ASTMatchers.h>
#include <fmt/format.h>

#include "analyzers/checks/names.h"

namespace kta::analyzers {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

// `threadIdx.x % 32`, `tid / 64`, `lane & 31`, `tid >> 5`: lane and warp index math.
auto lane_math() {
  return binaryOperator(hasAnyOperatorName("%", "/", "&", ">>"),
                        hasRHS(ignoringParenImpCasts(integerLiteral().bind("lit"))),
                        hasAncestor(functionDecl().bind("fn")))
      .bind("lane");
}

// `__shfl_down(v, o, 32)`, `__shfl_xor_sync(mask, v, o, 32)`: a shuffle with a literal width.
auto shuffle_call() {
  return callExpr(callee(functionDecl(matchesName("^::__shfl")))).bind("shfl");
}

// `for (int o = 16; o > 0; o /= 2) v += __shfl_down(v, o);`: a reduction sized by a literal.
auto shuffle_loop() {
  return forStmt(hasBody(hasDescendant(callExpr(callee(functionDecl(matchesName("^::__shfl")))))))
      .bind("loop");
}

// `constexpr int WARP_SIZE = 32;`
auto warp_constant() {
  return varDecl(hasInitializer(ignoringParenImpCasts(integerLiteral().bind("lit")))).bind("var");
}

bool is_warp_value(uint64_t v) { return v == 32 || v == 64; }

bool in_macro_body(const SourceManager& sm, SourceLocation loc) {
  return loc.isMacroID() && !sm.isMacroArgExpansion(loc);
}

const char* kAdvice = "use warpSize";

}  // namespace

void HardcodedWarpSizeCheck::register_matchers(MatchFinder& finder) {
  auto in_source = [](auto m) { return traverse(TK_IgnoreUnlessSpelledInSource, m); };
  finder.addMatcher(in_source(lane_math()), this);
  finder.addMatcher(in_source(shuffle_call()), this);
  finder.addMatcher(in_source(shuffle_loop()), this);
  finder.addMatcher(in_source(warp_constant()), this);
}

void HardcodedWarpSizeCheck::check(const MatchFinder::MatchResult& result) {
  ASTContext& ast = *result.Context;
  const auto* lit = result.Nodes.getNodeAs<IntegerLiteral>("lit");
  if (const auto* op = result.Nodes.getNodeAs<BinaryOperator>("lane"))
    on_lane_math(op, lit, result.Nodes.getNodeAs<FunctionDecl>("fn"), ast);
  else if (const auto* call = result.Nodes.getNodeAs<CallExpr>("shfl"))
    on_shuffle(call, ast);
  else if (const auto* loop = result.Nodes.getNodeAs<ForStmt>("loop"))
    on_loop(loop, ast);
  else if (const auto* var = result.Nodes.getNodeAs<VarDecl>("var"))
    on_constant(var, lit, ast);
}

void HardcodedWarpSizeCheck::on_lane_math(const BinaryOperator* op, const IntegerLiteral* lit,
                                          const FunctionDecl* fn, ASTContext& ast) {
  if (in_macro_body(ast.getSourceManager(), lit->getBeginLoc()) || !fn) return;
  uint64_t v = lit->getValue().getLimitedValue();
  bool warp = false;
  switch (op->getOpcode()) {
    case BO_Rem:
    case BO_Div:
      warp = is_warp_value(v);
      break;
    case BO_And:
      warp = v == 31 || v == 63;
      break;
    case BO_Shr:
      warp = v == 5 || v == 6;
      break;
    default:
      break;
  }
  if (!warp || !mentions_any_index(op->getLHS(), ctx().facts(fn))) return;
  report(ast, op->getOperatorLoc(),
         fmt::format("lane/warp index computed with '{} {}': assumes a warp of {} threads ({}; "
                     "AMD wavefronts are 64 wide, NVIDIA warps 32)",
                     op->getOpcodeStr().str(), v,
                     op->getOpcode() == BO_And   ? v + 1
                     : op->getOpcode() == BO_Shr ? (1u << v)
                                                 : v,
                     kAdvice));
}

void HardcodedWarpSizeCheck::on_shuffle(const CallExpr* call, ASTContext& ast) {
  // The width is the last argument: `__shfl_down(v, delta, width)`.
  const FunctionDecl* fn = call->getDirectCallee();
  unsigned width_index = fn && fn->getName().endswith("_sync") ? 3 : 2;
  if (call->getNumArgs() <= width_index) return;
  const auto* lit = dyn_cast<IntegerLiteral>(call->getArg(width_index)->IgnoreParenImpCasts());
  if (!lit || in_macro_body(ast.getSourceManager(), lit->getBeginLoc()) ||
      !is_warp_value(lit->getValue().getLimitedValue()))
    return;
  report(ast, lit->getBeginLoc(),
         fmt::format("shuffle width {} is a hard-coded warp size ({})",
                     lit->getValue().getLimitedValue(), kAdvice));
}

void HardcodedWarpSizeCheck::on_loop(const ForStmt* loop, ASTContext& ast) {
  // The loop's start (`o = 16`) or bound (`o < 32`) spells half or all of a 32/64 warp.
  const Stmt* parts[] = {loop->getInit(), loop->getCond()};
  for (const Stmt* part : parts) {
    if (!part) continue;
    const IntegerLiteral* lit = nullptr;
    if (const auto* decl = dyn_cast<DeclStmt>(part); decl && decl->isSingleDecl())
      if (const auto* v = dyn_cast<VarDecl>(decl->getSingleDecl()); v && v->getInit())
        lit = dyn_cast<IntegerLiteral>(v->getInit()->IgnoreParenImpCasts());
    if (const auto* cmp = dyn_cast<BinaryOperator>(part); cmp && cmp->isComparisonOp())
      lit = dyn_cast<IntegerLiteral>(cmp->getRHS()->IgnoreParenImpCasts());
    if (!lit || in_macro_body(ast.getSourceManager(), lit->getBeginLoc())) continue;
    uint64_t v = lit->getValue().getLimitedValue();
    if (v != 16 && v != 32 && v != 64) continue;
    report(ast, lit->getBeginLoc(),
           fmt::format("shuffle reduction loop starts or stops at {}: it assumes a warp of {} "
                       "threads (loop from warpSize / 2)",
                       v, part == loop->getInit() ? v * 2 : v));
    return;
  }
}

void HardcodedWarpSizeCheck::on_constant(const VarDecl* var, const IntegerLiteral* lit,
                                         ASTContext& ast) {
  if (!is_warp_like_name(var->getName()) ||
      in_macro_body(ast.getSourceManager(), lit->getBeginLoc()) ||
      !is_warp_value(lit->getValue().getLimitedValue()))
    return;
  report(ast, lit->getBeginLoc(),
         fmt::format("'{}' = {} hard-codes the warp size ({})", var->getName().str(),
                     lit->getValue().getLimitedValue(), kAdvice));
}

void HardcodedWarpSizeCheck::finish(ASTContext& ast) {
  for (const MacroConstant& m : ctx().macros()) {
    if (!is_warp_like_name(m.name) || !is_warp_value(static_cast<uint64_t>(m.value))) continue;
    report(ast, m.loc,
           fmt::format("macro '{}' = {} hard-codes the warp size ({})", m.name, m.value, kAdvice));
  }
}

}  // namespace kta::analyzers
