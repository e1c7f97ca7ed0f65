#include <algorithm>

#include "engine/plan/compile.h"
#include "engine/plan/passes.h"
#include "lang/hash.h"
#include "lang/heldout.h"

namespace kta::engine {

namespace {

uint64_t secret_seed(const std::string& secret) {
  std::string h = lang::ContentHasher().field("secret", secret).hex();
  return std::stoull(h.substr(0, 16), nullptr, 16);
}

}  // namespace

void derive_heldout(Plan& plan, const PlanOptions& options) {
  uint64_t seed = secret_seed(options.secret);
  for (auto& job : plan.jobs) {
    job.heldout_enabled = plan.heldout;
    if (!plan.heldout) continue;
    job.heldout = lang::expand_heldout(job.task, seed);
    // A held-out point equal to a visible one would leak nothing new and tests nothing new.
    std::erase_if(job.heldout, [&](const model::ShapePoint& p) {
      return std::find(job.visible.begin(), job.visible.end(), p) != job.visible.end();
    });
  }
}

}  // namespace kta::engine
