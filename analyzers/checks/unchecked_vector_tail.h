// kta-unchecked-vector-tail: vector loads/stores through a cast to float4*/half2*/... with no
// handling of the elements left over when the size is not a multiple of the vector width.
#pragma once

#include <vector>

#include "analyzers/check.h"

namespace kta::analyzers {

class UncheckedVectorTailCheck : public Check {
 public:
  UncheckedVectorTailCheck() : Check("kta-unchecked-vector-tail") {}
  void register_matchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
  void finish(clang::ASTContext& ast) override;

 private:
  struct VectorCast {
    const clang::FunctionDecl* fn;
    const clang::VarDecl* base;
    unsigned width;
    clang::SourceLocation loc;
    std::string type;
  };
  std::vector<VectorCast> casts_;
  std::vector<unsigned> remainder_widths_;  // `n % 4` -> 4, `n & 3` -> 4
};

}  // namespace kta::analyzers
