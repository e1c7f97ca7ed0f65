#include "analyzers/checks/unchecked_vector_tail.h"

#include <clang/ASTMatchers/ASTMatchers.h>
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <set>

namespace kta::analyzers {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

constexpr const char* kVectorTypes =
    "^::(float|double|u?int|u?short|u?char|u?long|u?longlong|__half|half|__hip_bfloat16)[234]$";

// `reinterpret_cast<float4*>(x)`, `(const float4*)&x[i]`: a cast to a pointer to a vector.
auto vector_pointer_cast() {
  return explicitCastExpr(hasDestinationType(pointerType(pointee(hasUnqualifiedDesugaredType(
                              recordType(hasDeclaration(recordDecl(matchesName(kVectorTypes)))))))),
                          hasAncestor(functionDecl().bind("fn")))
      .bind("cast");
}

// `n % 4`, `n & 3`, `n - n % 4`: the size of a tail, computed somewhere in the audited file
// (not in the headers it includes).
auto remainder_of_size() {
  return binaryOperator(isExpansionInMainFile(), hasAnyOperatorName("%", "&", "%="),
                        hasRHS(ignoringParenImpCasts(integerLiteral().bind("width"))),
                        hasAncestor(functionDecl().bind("fn")))
      .bind("rem");
}

unsigned vector_width(const std::string& type_name) {
  char last = type_name.empty() ? '1' : type_name.back();
  return last >= '2' && last <= '4' ? static_cast<unsigned>(last - '0') : 1;
}

// A scalar access `x[i]` of the same pointer in the function: a tail (or fallback) loop.
bool has_scalar_access(const Stmt* s, const VarDecl* base) {
  if (!s) return false;
  if (const auto* sub = dyn_cast<ArraySubscriptExpr>(s)) {
    const Expr* b = sub->getBase()->IgnoreParenImpCasts();
    if (!isa<ExplicitCastExpr>(b) && base_var(b) == base) return true;
  }
  for (const Stmt* child : s->children())
    if (has_scalar_access(child, base)) return true;
  return false;
}

}  // namespace

void UncheckedVectorTailCheck::register_matchers(MatchFinder& finder) {
  finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, vector_pointer_cast()), this);
  finder.addMatcher(traverse(TK_IgnoreUnlessSpelledInSource, remainder_of_size()), this);
}

void UncheckedVectorTailCheck::check(const MatchFinder::MatchResult& result) {
  const auto* fn = result.Nodes.getNodeAs<FunctionDecl>("fn");
  if (const auto* cast = result.Nodes.getNodeAs<ExplicitCastExpr>("cast")) {
    QualType from = cast->getSubExpr()->IgnoreParenImpCasts()->getType();
    QualType to = cast->getTypeAsWritten()->getPointeeType();
    // Already a vector pointer (a const cast, say): the load width is not new here.
    if (from->isPointerType() && from->getPointeeType().getCanonicalType().getUnqualifiedType() ==
                                     to.getCanonicalType().getUnqualifiedType())
      return;
    const VarDecl* base = base_var(cast->getSubExpr());
    std::string type = to.getUnqualifiedType().getAsString();
    casts_.push_back({fn, base, vector_width(type), cast->getBeginLoc(), type});
    return;
  }
  if (const auto* rem = result.Nodes.getNodeAs<BinaryOperator>("rem")) {
    const auto* width = result.Nodes.getNodeAs<IntegerLiteral>("width");
    if (!fn || !mentions_size(rem->getLHS(), ctx().facts(fn))) return;
    uint64_t w = width->getValue().getLimitedValue();
    remainder_widths_.push_back(static_cast<unsigned>(rem->getOpcode() == BO_And ? w + 1 : w));
  }
}

void UncheckedVectorTailCheck::finish(ASTContext& ast) {
  std::set<std::pair<const FunctionDecl*, const VarDecl*>> reported;
  for (const VectorCast& c : casts_) {
    if (c.width < 2) continue;
    bool tail_sized = std::any_of(remainder_widths_.begin(), remainder_widths_.end(),
                                  [&](unsigned w) { return w >= 2 && w % c.width == 0; });
    if (tail_sized) continue;
    if (c.base && c.fn && has_scalar_access(c.fn->getBody(), c.base)) continue;
    if (!reported.emplace(c.fn, c.base).second) continue;
    report(ast, c.loc,
           fmt::format("vector access as {} with no tail handling: when the size is not a "
                       "multiple of {} the last elements are skipped or read out of bounds (handle "
                       "`n % {}` with a scalar loop)",
                       c.type, c.width, c.width));
  }
}

}  // namespace kta::analyzers
