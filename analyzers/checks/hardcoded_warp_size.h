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
};

}  // namespace kta::analyzers
