#include "analyzers/checks/ignored_size_param.h"

#include <clang/AST/ParentMapContext.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <fmt/format.h>

#include <functional>

namespace kta::analyzers {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

// `__global__ void k(float* x, int n) { ... }`: a kernel definition.
auto kernel_definition() {
  return functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal)).bind("kernel");
}

// Counts reads of `p` in `s`; `(void)p;` only silences a compiler and is no read.
bool is_read(const Stmt* s, const ParmVarDecl* p, const Stmt* parent) {
  if (const auto* ref = dyn_cast<DeclRefExpr>(s); ref && ref->getDecl() == p) {
    const auto* cast = dyn_cast_or_null<CStyleCastExpr>(parent);
    return !(cast && cast->getType()->isVoidType());
  }
  for (const Stmt* child : s->children())
    if (child && is_read(child, p, isa<ImplicitCastExpr>(s) || isa<ParenExpr>(s) ? parent : s))
      return true;
  return false;
}

// `template <> __global__ void k<4096>(...)`: a specialization for one size whose primary
// template is the general fallback; its body may assume its size.
bool specializes_with_fallback(const FunctionDecl* fn) {
  if (fn->getTemplateSpecializationKind() != TSK_ExplicitSpecialization) return false;
  const FunctionTemplateDecl* primary = fn->getPrimaryTemplate();
  return primary && primary->getTemplatedDecl()->hasBody();
}

}  // namespace

void IgnoredSizeParamCheck::register_matchers(MatchFinder& finder) {
  finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, kernel_definition()), this);
}

void IgnoredSizeParamCheck::check(const MatchFinder::MatchResult& result) {
  const auto* kernel = result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (!kernel || !kernel->getBody() || specializes_with_fallback(kernel)) return;
  unsigned index = 0;
  for (const ParmVarDecl* p : kernel->parameters()) {
    ++index;
    if (!is_size_type(p->getType().getNonReferenceType())) continue;
    if (is_read(kernel->getBody(), p, nullptr)) continue;
    std::string name =
        p->getName().empty() ? fmt::format("#{}", index) : "'" + p->getName().str() + "'";
    report(*result.Context, p->getLocation(),
           fmt::format("size parameter {} of kernel '{}' is never read: the kernel cannot adapt "
                       "to the size it is given",
                       name, kernel->getName().str()));
  }
}

}  // namespace kta::analyzers
