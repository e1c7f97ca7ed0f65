#include "analyzers/checks/fixed_launch_geometry.h"

#include <clang/AST/ExprCXX.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <fmt/format.h>

#include "analyzers/specialization.h"

namespace kta::analyzers {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

// `k<<<grid, block, 0, stream>>>(...)` and `hipLaunchKernelGGL(k, grid, block, ...)`.
auto kernel_launch() { return cudaKernelCallExpr().bind("launch"); }

// True when `e` depends on something only known at run time: a parameter, a non-constant
// global, a call, or a local initialized from one of those.
bool depends_on_runtime(const Stmt* e, int depth = 0) {
  if (!e || depth > 8) return depth > 8;
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(ref->getDecl());
    if (!v) return false;  // an enumerator or a function name
    if (isa<ParmVarDecl>(v)) return true;
    if (v->isConstexpr()) return false;
    if (v->hasGlobalStorage() && !v->getType().isConstQualified()) return true;
    if (!v->hasInit()) return true;  // assigned later: treat as run time
    return depends_on_runtime(v->getInit(), depth + 1);
  }
  if (const auto* call = dyn_cast<CallExpr>(e)) {
    const FunctionDecl* fn = call->getDirectCallee();
    if (!fn || !fn->isConstexpr()) return true;
  }
  for (const Stmt* child : e->children())
    if (depends_on_runtime(child, depth)) return true;
  return false;
}

// The dim3/integer grid's total block count when it is a constant.
std::optional<int64_t> grid_blocks(const Expr* grid, const ASTContext& ast, int depth = 0) {
  if (depth > 8) return std::nullopt;
  grid = grid->IgnoreParenImpCasts();
  if (const auto* ref = dyn_cast<DeclRefExpr>(grid))
    if (const auto* v = dyn_cast<VarDecl>(ref->getDecl()); v && v->hasInit())
      return grid_blocks(v->getInit(), ast, depth + 1);
  if (const auto* tmp = dyn_cast<MaterializeTemporaryExpr>(grid))
    return grid_blocks(tmp->getSubExpr(), ast, depth + 1);
  if (const auto* bind = dyn_cast<CXXBindTemporaryExpr>(grid))
    return grid_blocks(bind->getSubExpr(), ast, depth + 1);
  if (const auto* fc = dyn_cast<CXXFunctionalCastExpr>(grid))
    return grid_blocks(fc->getSubExpr(), ast, depth + 1);
  if (const auto* ctor = dyn_cast<CXXConstructExpr>(grid)) {
    if (ctor->getNumArgs() == 1 && ctor->getConstructor()->isCopyOrMoveConstructor())
      return grid_blocks(ctor->getArg(0), ast, depth + 1);
    int64_t total = 1;
    for (const Expr* arg : ctor->arguments()) {
      if (isa<CXXDefaultArgExpr>(arg)) continue;
      auto v = grid_blocks(arg, ast, depth + 1);
      if (!v) return std::nullopt;
      total *= *v;
    }
    return total;
  }
  Expr::EvalResult r;
  if (grid->getType()->isIntegerType() && grid->EvaluateAsInt(r, ast))
    return r.Val.getInt().getExtValue();
  return std::nullopt;
}

}  // namespace

void FixedLaunchGeometryCheck::register_matchers(MatchFinder& finder) {
  finder.addMatcher(traverse(TK_AsIs, kernel_launch()), this);
}

void FixedLaunchGeometryCheck::check(const MatchFinder::MatchResult& result) {
  const auto* launch = result.Nodes.getNodeAs<CUDAKernelCallExpr>("launch");
  const CallExpr* config = launch ? launch->getConfig() : nullptr;
  if (!config || config->getNumArgs() < 2) return;
  // The same launch in every instantiation of a template host function: judge it once.
  if (const FunctionDecl* host = enclosing_function(launch, *result.Context);
      host && host->isTemplateInstantiation())
    return;
  const Expr* grid = config->getArg(0);
  if (depends_on_runtime(grid)) return;
  // `if (n == 4096) k<<<16, 256>>>(...); else general...`: the size is known in the fast branch.
  if (enclosing_specialization(launch, *result.Context, ctx().facts_cache())) return;
  auto blocks = grid_blocks(grid, *result.Context);
  if (!blocks || *blocks <= 1) return;  // one block: a single-block kernel loops by design
  auto threads = grid_blocks(config->getArg(1), *result.Context);
  const ShapeSet& shapes = ctx().shapes();
  bool shape_sized = shapes.origin(*blocks) || (threads && shapes.origin(*blocks * *threads));
  // A kernel that loops over its size (grid-stride) covers any size with any grid.
  const FunctionDecl* kernel = launch->getDirectCallee();
  if (kernel && kernel->getTemplateInstantiationPattern())
    kernel = kernel->getTemplateInstantiationPattern();
  bool loops = kernel && kernel->hasBody() && ctx().facts(kernel).has_size_loop;
  if (loops && !shape_sized) return;
  std::string coverage = threads ? fmt::format("{} x {} threads", *blocks, *threads)
                                 : fmt::format("{} blocks", *blocks);
  report(
      *result.Context, grid->getBeginLoc(),
      fmt::format("launch grid of {} blocks does not depend on any size: the launch covers {} "
                  "whatever the shape{}; derive the grid from the size (e.g. ceil_div(n, block))",
                  *blocks, coverage, loops ? ", sized to the visible shape" : ""));
}

}  // namespace kta::analyzers
