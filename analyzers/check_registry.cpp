// The registry: every kta-* check by name, in catalog order.
#include "analyzers/check.h"
#include "analyzers/checks/fixed_launch_geometry.h"
#include "analyzers/checks/hardcoded_warp_size.h"
#include "analyzers/checks/ignored_size_param.h"
#include "analyzers/checks/shape_branch.h"
#include "analyzers/checks/shape_literal.h"
#include "analyzers/checks/unchecked_vector_tail.h"
#include "analyzers/checks/unguarded_index.h"

namespace kta::analyzers {

std::vector<std::unique_ptr<Check>> make_checks() {
  std::vector<std::unique_ptr<Check>> checks;
  checks.push_back(std::make_unique<ShapeLiteralCheck>());
  checks.push_back(std::make_unique<ShapeBranchCheck>());
  checks.push_back(std::make_unique<UnguardedIndexCheck>());
  checks.push_back(std::make_unique<IgnoredSizeParamCheck>());
  checks.push_back(std::make_unique<FixedLaunchGeometryCheck>());
  checks.push_back(std::make_unique<UncheckedVectorTailCheck>());
  checks.push_back(std::make_unique<HardcodedWarpSizeCheck>());
  return checks;
}

}  // namespace kta::analyzers
