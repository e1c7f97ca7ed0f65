#include "analyzers/checks/shape_literal.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/TypeLoc.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <fmt/format.h>

#include "analyzers/checks/names.h"

namespace kta::analyzers {

using namespace clang;
using namespace clang::ast_matchers;

namespace {

// `i < 4096`, `row >= 1024`, `for (j = 0; j < 8192; ++j)`: a literal in a comparison.
auto literal_in_comparison() {
  return binaryOperator(isComparisonOperator(),
                        hasEitherOperand(ignoringParenImpCasts(integerLiteral().bind("lit"))))
      .bind("cmp");
}

// `row * 4096 + col`, `x[i + 1024]`, `(4096 + 255) / 256`: a literal operand of arithmetic.
auto literal_in_arithmetic() {
  return binaryOperator(hasAnyOperatorName("*", "/", "%", "+", "-", "<<", "*=", "+=", "-=", "/="),
                        hasEitherOperand(ignoringParenImpCasts(integerLiteral().bind("lit"))))
      .bind("arith");
}

// `x[4096]`: a literal subscript.
auto literal_subscript() {
  return arraySubscriptExpr(hasIndex(ignoringParenImpCasts(integerLiteral().bind("lit"))))
      .bind("sub");
}

// `gemm<<<g, b>>>(a, b, c, 4096)`, `launch(x, 8192)`, `dim3 grid(64, 64)`: a literal argument.
auto literal_argument() {
  return expr(anyOf(callExpr(hasAnyArgument(ignoringParenImpCasts(integerLiteral().bind("lit")))),
                    cxxConstructExpr(
                        hasAnyArgument(ignoringParenImpCasts(integerLiteral().bind("lit"))))))
      .bind("arg");
}

// `__shared__ float buf[4096];`, `float acc[1024];`: an array sized by a literal.
auto literal_array_bound() { return varDecl(hasType(constantArrayType())).bind("array"); }

// `constexpr int N = 4096;`, `const long kRows = 8192;`, `int n = 4096;`: a named integer.
auto named_constant() {
  return varDecl(hasInitializer(ignoringParenImpCasts(integerLiteral().bind("lit")))).bind("const");
}

// `enum { ROWS = 1024 };`
auto enum_constant() {
  return enumConstantDecl(has(ignoringParenImpCasts(integerLiteral().bind("lit")))).bind("enum");
}

// "the visible shape value N" or "N*M of the visible shapes".
std::string describe(const std::string& origin) {
  if (origin.find_first_of("*/") == std::string::npos) return "the visible shape value " + origin;
  return origin + " of the visible shapes";
}

bool in_macro_body(const SourceManager& sm, SourceLocation loc) {
  return loc.isMacroID() && !sm.isMacroArgExpansion(loc);
}

// Inside `template <> __global__ void k<4096>(...)`: a specialization for one size is allowed
// (the primary template is the general fallback).
bool in_explicit_specialization(const Stmt* s, ASTContext& ast) {
  const FunctionDecl* fn = enclosing_function(s, ast);
  return fn && fn->getTemplateSpecializationKind() == TSK_ExplicitSpecialization;
}

}  // namespace

void ShapeLiteralCheck::register_matchers(MatchFinder& finder) {
  auto in_source = [](auto m) { return traverse(TK_IgnoreUnlessSpelledInSource, m); };
  finder.addMatcher(in_source(literal_in_comparison()), this);
  finder.addMatcher(in_source(literal_in_arithmetic()), this);
  finder.addMatcher(in_source(literal_subscript()), this);
  finder.addMatcher(in_source(literal_argument()), this);
  finder.addMatcher(in_source(literal_array_bound()), this);
  finder.addMatcher(in_source(named_constant()), this);
  finder.addMatcher(in_source(enum_constant()), this);
}

void ShapeLiteralCheck::check(const MatchFinder::MatchResult& result) {
  ASTContext& ast = *result.Context;
  const auto* lit = result.Nodes.getNodeAs<IntegerLiteral>("lit");
  if (const auto* c = result.Nodes.getNodeAs<VarDecl>("const")) {
    on_named(c->getName(), lit->getValue().getLimitedValue(INT64_MAX), lit->getBeginLoc(),
             c->getType().isConstQualified() || c->isConstexpr() ? "constant" : "variable", ast);
  } else if (const auto* e = result.Nodes.getNodeAs<EnumConstantDecl>("enum")) {
    on_named(e->getName(), lit->getValue().getLimitedValue(INT64_MAX), lit->getBeginLoc(),
             "enumerator", ast);
  } else if (const auto* a = result.Nodes.getNodeAs<VarDecl>("array")) {
    TypeLoc tl = a->getTypeSourceInfo() ? a->getTypeSourceInfo()->getTypeLoc() : TypeLoc();
    auto arr = tl.getAs<ConstantArrayTypeLoc>();
    const auto* size = arr ? dyn_cast_or_null<IntegerLiteral>(arr.getSizeExpr()) : nullptr;
    if (size) on_literal(size, nullptr, "as an array bound", ast);
  } else if (const auto* cmp = result.Nodes.getNodeAs<BinaryOperator>("cmp")) {
    const Expr* other = cmp->getLHS()->IgnoreParenImpCasts() == lit ? cmp->getRHS() : cmp->getLHS();
    on_literal(lit, other, "in a comparison", ast);
  } else if (const auto* op = result.Nodes.getNodeAs<BinaryOperator>("arith")) {
    const Expr* other = op->getLHS()->IgnoreParenImpCasts() == lit ? op->getRHS() : op->getLHS();
    on_literal(lit, other, "in index arithmetic", ast);
  } else if (result.Nodes.getNodeAs<ArraySubscriptExpr>("sub")) {
    on_literal(lit, nullptr, "as a subscript", ast);
  } else if (const auto* arg = result.Nodes.getNodeAs<Expr>("arg")) {
    const char* where = isa<CUDAKernelCallExpr>(arg) ? "as a kernel argument" : "as an argument";
    if (const auto* call = dyn_cast<CallExpr>(arg); call && is_shuffle_call(call)) return;
    on_literal(lit, nullptr, where, ast);
  }
}

void ShapeLiteralCheck::on_literal(const IntegerLiteral* lit, const Expr* other, const char* where,
                                   ASTContext& ast) {
  const SourceManager& sm = ast.getSourceManager();
  // Literals spelled in a #define body are judged once, at the definition (finish()).
  if (in_macro_body(sm, lit->getBeginLoc())) return;
  int64_t value = static_cast<int64_t>(lit->getValue().getLimitedValue(INT64_MAX));
  auto origin = ctx().shapes().origin(value);
  if (!origin || in_explicit_specialization(lit, ast)) return;
  const FunctionDecl* fn = enclosing_function(lit, ast);
  if (other && fn) {
    const FunctionFacts& facts = ctx().facts(fn);
    // `if (n == 4096)` is a branch on a size: kta-shape-branch judges it, fallback included.
    if (std::string_view(where) == "in a comparison" && mentions_size(other, facts)) return;
    // `blockIdx.x * 256`, `tid < 128`: a small power of two next to a thread index is a tile
    // or block size, not a shape; so is the divisor in `(n + 127) / 128` launch math.
    bool arithmetic = std::string_view(where) == "in index arithmetic";
    if (is_small_power_of_two(value) &&
        (mentions_any_index(other, facts) || (arithmetic && mentions_size(other, facts))))
      return;
  } else if (!other && is_small_power_of_two(value) &&
             std::string_view(where) != "as a kernel argument") {
    // `__shared__ float tile[64]`, `dim3 block(128)`, `x[32]`: tile buffers and block shapes.
    // A literal passed to a kernel as an argument is reported whatever its value.
    return;
  }
  report(ast, lit->getBeginLoc(),
         fmt::format("literal {} {} equals {}; unseen shapes will not match it (derive it "
                     "from a size parameter)",
                     value, where, describe(*origin)));
}

void ShapeLiteralCheck::on_named(llvm::StringRef name, int64_t value, SourceLocation loc,
                                 const char* what, ASTContext& ast) {
  auto origin = ctx().shapes().origin(value);
  if (!origin || is_tile_like_name(name)) return;
  if (in_macro_body(ast.getSourceManager(), loc) && std::string_view(what) != "macro") return;
  // A size-sounding name says what the constant is; otherwise only unusual values (not the
  // small powers of two tiles are made of) are evidence enough.
  if (!is_size_like_name(name, ctx().shapes()) && is_small_power_of_two(value)) return;
  report(ast, loc,
         fmt::format("{} '{}' = {} hard-codes {}; unseen shapes will not match it (pass the "
                     "size as a parameter)",
                     what, name.str(), value, describe(*origin)));
}

void ShapeLiteralCheck::finish(ASTContext& ast) {
  for (const MacroConstant& m : ctx().macros()) on_named(m.name, m.value, m.loc, "macro", ast);
}

}  // namespace kta::analyzers
