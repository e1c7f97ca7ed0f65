// kta-shape-literal: an integer literal equal to a visible shape value (or a product or
// quotient of two) in index math, loop bounds, comparisons, array bounds, launch math, kernel
// arguments or a size-named constant.
#pragma once

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
};

}  // namespace kta::analyzers
