// kta-ignored-size-param: a kernel takes a size parameter and never reads it, so the kernel
// cannot adapt to the size it is given.
#pragma once

#include "analyzers/check.h"

namespace kta::analyzers {

class IgnoredSizeParamCheck : public Check {
 public:
  IgnoredSizeParamCheck() : Check("kta-ignored-size-param") {}
  void register_matchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
};

}  // namespace kta::analyzers
