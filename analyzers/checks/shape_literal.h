// kta-shape-literal: an integer literal equal to a visible shape value (or a product or
// quotient of two) in index math, loop bounds, comparisons, array bounds, launch math, kernel
// arguments or a size-named constant; a literal row stride or a shared array sized to a visible
// dimension. Host code is judged where it computes a launch, device code everywhere; code in the
// fast branch of a guarded specialization may assume the size it is specialized for.
#pragma once

#include <vector>

#include "analyzers/check.h"

namespace kta::analyzers {

class ShapeLiteralCheck : public Check {
 public:
  ShapeLiteralCheck() : Check("kta-shape-literal") {}
  void register_matchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void finish(clang::ASTContext& ast) override;

 private:
  void on_literal(const clang::IntegerLiteral* lit, const clang::Expr* other, const char* where,
                  clang::ASTContext& ast);
  void on_named(llvm::StringRef name, int64_t value, clang::SourceLocation loc, const char* what,
                clang::ASTContext& ast);
  void on_array(const clang::VarDecl* array, clang::ASTContext& ast);
  // `row * 1024 + col` addressing global memory, 1024 a visible value: a row stride.
  bool is_row_stride(const clang::IntegerLiteral* lit, const clang::BinaryOperator* product,
                     const clang::Expr* other, clang::ASTContext& ast);
  // True when a named constant is judged now; a file-scope one is judged in finish(), by its uses.
  bool judged_decl(const clang::VarDecl* v, const clang::IntegerLiteral* lit);
  // True when some use is judged (device code or launch geometry), or there is no use to go by.
  bool judged_by_uses(const std::vector<const clang::Expr*>& uses, clang::ASTContext& ast);

  struct Pending {
    const clang::VarDecl* var;
    const clang::IntegerLiteral* lit;
  };
  std::vector<Pending> file_scope_constants_;
};

}  // namespace kta::analyzers
