#include "engine/results/records.h"

#include <fmt/format.h>

namespace kta::engine {

const char* outcome_name(StepOutcome o) {
  switch (o) {
    case StepOutcome::ok:
      return "ok";
    case StepOutcome::fail:
      return "fail";
    case StepOutcome::skip:
      return "skip";
    case StepOutcome::error:
      return "error";
  }
  return "?";
}

std::optional<StepOutcome> parse_outcome(const std::string& s) {
  for (StepOutcome o : {StepOutcome::ok, StepOutcome::fail, StepOutcome::skip, StepOutcome::error})
    if (s == outcome_name(o)) return o;
  return std::nullopt;
}

std::string shape_text(const model::ShapePoint& p) {
  std::string out;
  for (const auto& [name, value] : p) {
    if (!out.empty()) out += ',';
    out += fmt::format("{}={}", name, value);
  }
  return out;
}

}  // namespace kta::engine
