#include "analyzers/checks/shape_literal.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/TypeLoc.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <fmt/format.h>

#include <map>
#include <vector>

#include "analyzers/checks/names.h"
#include "analyzers/specialization.h"

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

// `call->tensors[3]`, `call->params[2]`: a position in the launcher ABI, never a shape.
bool is_launch_abi_slot(const ArraySubscriptExpr* sub) {
  const auto* member = dyn_cast<MemberExpr>(sub->getBase()->IgnoreParenImpCasts());
  const auto* field = member ? dyn_cast<FieldDecl>(member->getMemberDecl()) : nullptr;
  if (!field || !field->getParent()->getIdentifier()) return false;
  return field->getParent()->getName() == "kta_call" &&
         (field->getName() == "tensors" || field->getName() == "params");
}

// `v[3]` of a `float v[4]` declared in the function (registers, a __shared__ tile): a position
// within the array's own bound, which says nothing about a tensor's shape (the bound itself is
// judged where the array is declared).
bool is_fixed_array_slot(const ArraySubscriptExpr* sub, int64_t value) {
  const auto* ref = dyn_cast<DeclRefExpr>(sub->getBase()->IgnoreParenImpCasts());
  const auto* var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  if (!var || isa<ParmVarDecl>(var) || !var->getParentFunctionOrMethod()) return false;
  const auto* arr = dyn_cast<ConstantArrayType>(var->getType().getCanonicalType().getTypePtr());
  return arr && value >= 0 && static_cast<uint64_t>(value) < arr->getSize().getZExtValue();
}

// `(4 - misalign) & 3`, `(addr + 15) & ~15`-style alignment arithmetic: a power of two p whose
// arithmetic is reduced modulo p (masked by p - 1) right after.
bool is_masked_modulo(const IntegerLiteral* lit, const BinaryOperator* op, ASTContext& ast) {
  int64_t p = static_cast<int64_t>(lit->getValue().getLimitedValue(INT64_MAX));
  if (p <= 1 || (p & (p - 1)) != 0) return false;
  DynTypedNodeList parents = ast.getParents(*op);
  while (!parents.empty()) {
    const auto* e = parents[0].get<Expr>();
    if (!e) return false;
    if (isa<ParenExpr>(e) || isa<ImplicitCastExpr>(e) || isa<CStyleCastExpr>(e)) {
      parents = ast.getParents(*e);
      continue;
    }
    const auto* mask = dyn_cast<BinaryOperator>(e);
    if (!mask || mask->getOpcode() != BO_And) return false;
    for (const Expr* side : {mask->getLHS(), mask->getRHS()}) {
      Expr::EvalResult r;
      if (!side->isValueDependent() && side->EvaluateAsInt(r, ast) &&
          r.Val.getInt().getExtValue() == p - 1)
        return true;
    }
    return false;
  }
  return false;
}

// Where the audited file uses its file-scope constants and its macros' literals.
class UseIndex : public RecursiveASTVisitor<UseIndex> {
 public:
  explicit UseIndex(ASTContext& ast) : sm_(ast.getSourceManager()) {
    for (Decl* d : ast.getTranslationUnitDecl()->decls())
      if (d->getLocation().isValid() &&
          sm_.isWrittenInMainFile(sm_.getExpansionLoc(d->getLocation())))
        TraverseDecl(d);
  }
  bool VisitDeclRefExpr(DeclRefExpr* ref) {
    if (const auto* v = dyn_cast<VarDecl>(ref->getDecl())) vars_[v].push_back(ref);
    return true;
  }
  bool VisitIntegerLiteral(IntegerLiteral* lit) {
    if (lit->getBeginLoc().isMacroID())
      macros_[sm_.getSpellingLoc(lit->getBeginLoc()).getRawEncoding()].push_back(lit);
    return true;
  }
  const std::vector<const Expr*>& of(const VarDecl* v) { return vars_[v]; }
  const std::vector<const Expr*>& of_macro(SourceLocation body) {
    return macros_[body.getRawEncoding()];
  }

 private:
  const SourceManager& sm_;
  std::map<const VarDecl*, std::vector<const Expr*>> vars_;
  std::map<unsigned, std::vector<const Expr*>> macros_;
};

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

// `blockIdx.x * 256 + threadIdx.x`: the block offset of a global thread index, where the literal
// is the block size (a shape only by coincidence).
bool is_block_offset(const BinaryOperator* product, const Expr* other, ASTContext& ast) {
  if (builtin_index_name(other) != "blockIdx") return false;
  DynTypedNodeList parents = ast.getParents(*product);
  while (!parents.empty() && (parents[0].get<ParenExpr>() || parents[0].get<ImplicitCastExpr>()))
    parents = ast.getParents(parents[0]);
  const auto* sum = parents.empty() ? nullptr : parents[0].get<BinaryOperator>();
  if (!sum || sum->getOpcode() != BO_Add) return false;
  const Expr* lhs = sum->getLHS()->IgnoreParenImpCasts();
  const Expr* addend = lhs == product->IgnoreParenImpCasts() ? sum->getRHS() : sum->getLHS();
  return builtin_index_name(addend) == "threadIdx";
}

// True when `e`'s value addresses global memory: it is (part of) the index of a subscript of a
// global pointer, an offset added to one, or the value of a variable used so.
bool addresses_global_memory(const Expr* e, const FunctionFacts& facts, ASTContext& ast) {
  const Stmt* node = e;
  DynTypedNodeList parents = ast.getParents(*e);
  while (!parents.empty()) {
    if (const auto* v = parents[0].get<VarDecl>()) return facts.global_index_vars.count(v) > 0;
    const Stmt* parent = parents[0].get<Stmt>();
    if (!parent) return false;
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(parent)) {
      const VarDecl* base = base_var(sub->getBase());
      bool index = sub->getIdx()->IgnoreParenImpCasts() == cast<Expr>(node)->IgnoreParenImpCasts();
      return index && base && facts.global_ptrs.count(base);
    }
    if (const auto* op = dyn_cast<BinaryOperator>(parent)) {
      if (op->getType()->isPointerType()) {
        const VarDecl* base =
            base_var(op->getLHS()->getType()->isPointerType() ? op->getLHS() : op->getRHS());
        return base && facts.global_ptrs.count(base);
      }
      if (op->isAssignmentOp()) {
        const VarDecl* v = named_var(op->getLHS());
        return v && facts.global_index_vars.count(v);
      }
      if (!op->isAdditiveOp() && !op->isMultiplicativeOp() && !op->isShiftOp()) return false;
    } else if (!isa<ParenExpr>(parent) && !isa<ImplicitCastExpr>(parent) &&
               !isa<CStyleCastExpr>(parent) && !isa<CXXStaticCastExpr>(parent)) {
      return false;
    }
    node = parent;
    parents = ast.getParents(*parent);
  }
  return false;
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
    if (!judged_decl(c, lit)) return;
    on_named(c->getName(), lit->getValue().getLimitedValue(INT64_MAX), lit->getBeginLoc(),
             c->getType().isConstQualified() || c->isConstexpr() ? "constant" : "variable", ast);
  } else if (const auto* e = result.Nodes.getNodeAs<EnumConstantDecl>("enum")) {
    on_named(e->getName(), lit->getValue().getLimitedValue(INT64_MAX), lit->getBeginLoc(),
             "enumerator", ast);
  } else if (const auto* a = result.Nodes.getNodeAs<VarDecl>("array")) {
    on_array(a, ast);
  } else if (const auto* cmp = result.Nodes.getNodeAs<BinaryOperator>("cmp")) {
    const Expr* other = cmp->getLHS()->IgnoreParenImpCasts() == lit ? cmp->getRHS() : cmp->getLHS();
    on_literal(lit, other, "in a comparison", ast);
  } else if (const auto* op = result.Nodes.getNodeAs<BinaryOperator>("arith")) {
    const Expr* other = op->getLHS()->IgnoreParenImpCasts() == lit ? op->getRHS() : op->getLHS();
    if (is_row_stride(lit, op, other, ast))
      on_literal(lit, nullptr, "as a row stride", ast);
    else if (!is_masked_modulo(lit, op, ast))
      on_literal(lit, other, "in index arithmetic", ast);
  } else if (const auto* sub = result.Nodes.getNodeAs<ArraySubscriptExpr>("sub")) {
    if (is_launch_abi_slot(sub) ||
        is_fixed_array_slot(sub, static_cast<int64_t>(lit->getValue().getLimitedValue(INT64_MAX))))
      return;
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
  if (!origin || in_explicit_specialization(lit, ast) || !ctx().scope().judged(lit, ast)) return;
  if (auto spec = enclosing_specialization(lit, ast, ctx().facts_cache());
      spec && specialization_explains(*spec, value))
    return;
  const FunctionDecl* fn = enclosing_function(lit, ast);
  bool row_stride = std::string_view(where) == "as a row stride";
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
  }
  // `kThreads * 4 * kVec`: tile arithmetic among compile-time constants (the product, where it is
  // named, is judged as a named constant).
  if (other && std::string_view(where) == "in index arithmetic" && is_small_power_of_two(value) &&
      !other->isValueDependent() && other->isIntegerConstantExpr(ast))
    return;
  // `__shared__ float tile[64]`, `dim3 block(128)`, `x[32]`: tile buffers and block shapes. A
  // literal passed to a kernel as an argument is reported whatever its value.
  if (!other && !row_stride && is_small_power_of_two(value) &&
      std::string_view(where) != "as a kernel argument")
    return;
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
  // `constexpr int kSmallFloats = 4096;  // shared floats`: a power of two that only a product or
  // quotient of visible sizes reaches, under a name that does not say size, is a capacity.
  if (!is_size_like_name(name, ctx().shapes()) && (value & (value - 1)) == 0 &&
      !ctx().shapes().is_direct(value))
    return;
  report(ast, loc,
         fmt::format("{} '{}' = {} hard-codes {}; unseen shapes will not match it (pass the "
                     "size as a parameter)",
                     what, name.str(), value, describe(*origin)));
}

bool ShapeLiteralCheck::is_row_stride(const IntegerLiteral* lit, const BinaryOperator* product,
                                      const Expr* other, ASTContext& ast) {
  if (product->getOpcode() != BO_Mul && product->getOpcode() != BO_MulAssign) return false;
  if (!ctx().shapes().is_direct(static_cast<int64_t>(lit->getValue().getLimitedValue(INT64_MAX))))
    return false;
  const FunctionDecl* fn = enclosing_function(product, ast);
  if (!is_device_function(fn)) return false;
  const FunctionFacts& facts = ctx().facts(fn);
  if (!mentions_any_index(other, facts) || is_block_offset(product, other, ast)) return false;
  return addresses_global_memory(product, facts, ast);
}

void ShapeLiteralCheck::on_array(const VarDecl* a, ASTContext& ast) {
  TypeLoc tl = a->getTypeSourceInfo() ? a->getTypeSourceInfo()->getTypeLoc() : TypeLoc();
  auto arr = tl.getAs<ConstantArrayTypeLoc>();
  const auto* size = arr ? dyn_cast_or_null<IntegerLiteral>(arr.getSizeExpr()) : nullptr;
  if (!size || in_macro_body(ast.getSourceManager(), size->getBeginLoc())) return;
  const auto* fn = dyn_cast_or_null<FunctionDecl>(a->getParentFunctionOrMethod());
  bool device_storage = a->hasAttr<CUDASharedAttr>() || a->hasAttr<CUDAConstantAttr>() ||
                        a->hasAttr<CUDADeviceAttr>();
  // `char buf[4096]` in host code that computes no launch, or a host global: host memory.
  if (fn ? !ctx().scope().judged_var(a, fn) : !device_storage) return;
  int64_t value = static_cast<int64_t>(size->getValue().getLimitedValue(INT64_MAX));
  // A __shared__ array as large as a visible dimension and walked up to a size: a tile would
  // be walked up to its own bound. A larger unseen shape overflows it.
  if (fn && a->hasAttr<CUDASharedAttr>() && ctx().shapes().is_direct(value)) {
    const FunctionFacts& facts = ctx().facts(fn);
    if (auto it = facts.size_indexed_arrays.find(a); it != facts.size_indexed_arrays.end()) {
      report(ast, size->getBeginLoc(),
             fmt::format("__shared__ array '{}' has {} elements, {}, and is indexed up to size "
                         "'{}': unseen larger shapes overflow it (loop over the dimension in "
                         "tiles, or size the array at launch)",
                         a->getName().str(), value, describe(*ctx().shapes().origin(value)),
                         it->second));
      return;
    }
  }
  on_literal(size, nullptr, "as an array bound", ast);
}

bool ShapeLiteralCheck::judged_decl(const VarDecl* v, const IntegerLiteral* lit) {
  if (const auto* fn = dyn_cast_or_null<FunctionDecl>(v->getParentFunctionOrMethod()))
    return ctx().scope().judged_var(v, fn);
  file_scope_constants_.push_back({v, lit});
  return false;
}

bool ShapeLiteralCheck::judged_by_uses(const std::vector<const Expr*>& uses, ASTContext& ast) {
  if (uses.empty()) return true;
  for (const Expr* use : uses)
    if (ctx().scope().judged(use, ast)) return true;
  return false;
}

void ShapeLiteralCheck::finish(ASTContext& ast) {
  UseIndex uses(ast);
  for (const Pending& p : file_scope_constants_) {
    if (!judged_by_uses(uses.of(p.var), ast)) continue;
    on_named(p.var->getName(), p.lit->getValue().getLimitedValue(INT64_MAX), p.lit->getBeginLoc(),
             p.var->getType().isConstQualified() || p.var->isConstexpr() ? "constant" : "variable",
             ast);
  }
  for (const MacroConstant& m : ctx().macros())
    if (judged_by_uses(uses.of_macro(m.loc), ast)) on_named(m.name, m.value, m.loc, "macro", ast);
}

}  // namespace kta::analyzers
