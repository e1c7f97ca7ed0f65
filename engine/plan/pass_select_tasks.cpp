#include <algorithm>
#include <string>

#include "engine/plan/compile.h"
#include "engine/plan/passes.h"

namespace kta::engine {

std::vector<model::Task> select_tasks(const model::Plan& source, const PlanOptions& options) {
  if (options.only.empty()) return source.tasks;
  std::vector<model::Task> kept;
  for (const auto& name : options.only) {
    auto it = std::find_if(source.tasks.begin(), source.tasks.end(),
                           [&](const model::Task& t) { return t.name == name; });
    if (it == source.tasks.end()) {
      std::string known;
      for (const auto& t : source.tasks) known += (known.empty() ? "" : ", ") + t.name;
      throw PlanError("--only names unknown task '" + name + "' (the plan has: " + known + ")");
    }
    bool dup =
        std::any_of(kept.begin(), kept.end(), [&](const model::Task& t) { return t.name == name; });
    if (!dup) kept.push_back(*it);
  }
  return kept;
}

}  // namespace kta::engine
