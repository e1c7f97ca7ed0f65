// kta-fixed-launch-geometry: a kernel launch whose grid does not depend on any size, so the
// work it covers is fixed (`k<<<16, 256>>>(x, n)`) unless the kernel loops over the size.
#pragma once

#include "analyzers/check.h"

namespace kta::analyzers {

class FixedLaunchGeometryCheck : public Check {
 public:
  FixedLaunchGeometryCheck() : Check("kta-fixed-launch-geometry") {}
  void register_matchers(clang::ast_matchers::MatchFinder& finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult& result) override;
};

}  // namespace kta::analyzers
