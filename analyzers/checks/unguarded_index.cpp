#include "analyzers/checks/unguarded_index.h"

#include <clang/ASTMatchers/ASTMatchers.h>
#include <fmt/format.h>

#include "analyzers/specialization.h"

namespace kta::analyzers {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

// `y[i] = x[i]`, `out[row * n + threadIdx.x]` inside a __global__ function.
auto kernel_subscript() {
  return arraySubscriptExpr(hasAncestor(functionDecl(hasAttr(attr::CUDAGlobal)).bind("kernel")))
      .bind("access");
}

// `template <> __global__ void k<4096>(...)`: a specialization for one size whose primary
// template is the general fallback; its body may assume its size.
bool specializes_with_fallback(const FunctionDecl* fn) {
  if (fn->getTemplateSpecializationKind() != TSK_ExplicitSpecialization) return false;
  const FunctionTemplateDecl* primary = fn->getPrimaryTemplate();
  return primary && primary->getTemplatedDecl()->hasBody();
}

}  // namespace

void UnguardedIndexCheck::register_matchers(MatchFinder& finder) {
  finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, kernel_subscript()), this);
}

void UnguardedIndexCheck::check(const MatchFinder::MatchResult& result) {
  const auto* access = result.Nodes.getNodeAs<ArraySubscriptExpr>("access");
  const auto* kernel = result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!access || !kernel || specializes_with_fallback(kernel)) return;
  ASTContext& ast = *result.Context;
  // In the fast branch of `if (n == 4096) {...} else {...}` the extent is known.
  if (enclosing_specialization(access, ast, ctx().facts_cache())) return;
  // A kernel launched only from such fast branches is one too (its launches fix its extent).
  if (ctx().scope().launched_only_specialized(kernel, ast, ctx().facts_cache())) return;
  const FunctionFacts& facts = ctx().facts(kernel);
  const VarDecl* base = base_var(access->getBase());
  // Only global memory: pointer parameters and pointers derived from them (not __shared__ or
  // local arrays, whose bounds are the block's own business).
  if (!base || !facts.global_ptrs.count(base)) return;
  if (!mentions_thread_index(access->getIdx(), facts)) return;
  const SourceManager& sm = result.Context->getSourceManager();
  for (SourceLocation guard : facts.guards)
    if (sm.isBeforeInTranslationUnit(guard, access->getBeginLoc())) return;
  if (!reported_.emplace(kernel, base).second) return;
  bool has_size = false;
  for (const ParmVarDecl* p : kernel->parameters())
    has_size = has_size || is_size_type(p->getType().getNonReferenceType());
  report(*result.Context, access->getBeginLoc(),
         has_size
             ? fmt::format("'{}' is indexed by the thread index with no bounds check against a "
                           "size parameter; threads past the end of an unseen shape access out of "
                           "bounds (guard with `if (i < n)` or a grid-stride loop)",
                           base->getName().str())
             : fmt::format("'{}' is indexed by the thread index and kernel '{}' takes no size "
                           "parameter: the extent is implied by the launch, so other shapes go out "
                           "of bounds",
                           base->getName().str(), kernel->getName().str()));
}

}  // namespace kta::analyzers
