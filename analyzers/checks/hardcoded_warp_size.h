// kta-hardcoded-warp-size: lane/warp math, shuffle widths or reduction loops written for a
// warp of 32 (or 64) instead of `warpSize`; AMD wavefronts are 64 wide, NVIDIA warps 32.
#pragma once

#include "analyzers/check.h"

namespace kta::analyzers {

class HardcodedWarpSizeCheck : public Check {
 public:
  HardcodedWarpSizeCheck() : Check("kta-hardcoded-warp-size") {}
  void register_matchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void finish(clang::ASTContext& ast) override;

 private:
  void on_lane_math(const clang::BinaryOperator* op, const clang::IntegerLiteral* lit,
                    const clang::FunctionDecl* fn, clang::ASTContext& ast);
  void on_shuffle(const clang::CallExpr* call, clang::ASTContext& ast);
  void on_loop(const clang::ForStmt* loop, clang::ASTContext& ast);
  void on_constant(const clang::VarDecl* var, const clang::IntegerLiteral* lit,
                   clang::ASTContext& ast);
};

}  // namespace kta::analyzers
