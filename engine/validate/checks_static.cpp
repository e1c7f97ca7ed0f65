#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "engine/agents/prompt.h"
#include "engine/execute/bindings.h"
#include "engine/validate/checks.h"
#include "lang/eval.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

// A held-out size that is an edge: 1, or a prime below this.
constexpr int64_t kSmallPrime = 128;

bool is_edge(int64_t v) {
  if (v == 1) return true;
  if (v < 2 || v >= kSmallPrime) return false;
  for (int64_t d = 2; d * d <= v; ++d)
    if (v % d == 0) return false;
  return true;
}

void promote(CheckOutcome& c, CheckLevel level) {
  if (static_cast<int>(level) > static_cast<int>(c.level) && c.level != CheckLevel::skip)
    c.level = level;
}

// Each decimal number written in `text` (digits not part of a word or a decimal).
std::set<int64_t> numbers_in(const std::string& text) {
  std::set<int64_t> out;
  for (size_t i = 0; i < text.size();) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    bool glued =
        (i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_' ||
                   text[i - 1] == '.')) ||
        (j < text.size() && (std::isalpha(static_cast<unsigned char>(text[j])) || text[j] == '_' ||
                             (text[j] == '.' && j + 1 < text.size() &&
                              std::isdigit(static_cast<unsigned char>(text[j + 1])))));
    if (!glued && j - i <= 18) out.insert(std::stoll(text.substr(i, j - i)));
    i = j;
  }
  return out;
}

}  // namespace

CheckOutcome heldout_points_check(const model::Task& task,
                                  const std::vector<model::ShapePoint>& visible,
                                  const std::vector<std::vector<model::ShapePoint>>& heldout) {
  CheckOutcome c = outcome("heldout.points", CheckLevel::pass, "");
  bool generated = task.heldout_generator.has_value();
  size_t total = 0;
  for (const auto& points : heldout) total += points.size();
  if (total == 0)
    return outcome("heldout.points", CheckLevel::fail,
                   "the task has no held-out points (`shapes heldout { ... }` or "
                   "`shapes heldout = std.heldout.perturb(visible)`): nothing tests whether a "
                   "kernel generalizes beyond the shapes it was shown");
  // The params the grid varies: shape params with more than one value over every point.
  std::map<std::string, std::set<int64_t>> values;
  for (const auto* set : {&visible})
    for (const auto& p : *set)
      for (const auto& [name, v] : p) values[name].insert(v);
  for (const auto& points : heldout)
    for (const auto& p : points)
      for (const auto& [name, v] : p) values[name].insert(v);
  for (size_t s = 0; s < heldout.size(); ++s) {
    std::string which = generated ? fmt::format(" (run secret {})", s + 1) : "";
    for (const auto& p : heldout[s]) {
      if (std::find(visible.begin(), visible.end(), p) != visible.end()) {
        c.level = CheckLevel::fail;
        c.details.push_back(fmt::format(
            "held-out point [{}] is also a visible point{}: a kernel tuned to the visible shapes "
            "passes it without generalizing",
            format_point(p), which));
      }
    }
    if (!generated) break;  // explicit points are the same for every secret
  }
  for (const auto& [name, all] : values) {
    if (all.size() < 2) continue;
    for (size_t s = 0; s < heldout.size(); ++s) {
      std::set<int64_t> held;
      for (const auto& p : heldout[s])
        for (const auto& [axis, value] : p)
          if (axis == name) held.insert(value);
      if (held.empty()) continue;
      std::string list;
      for (int64_t v : held) list += (list.empty() ? "" : ", ") + std::to_string(v);
      std::string which = generated ? fmt::format(" (run secret {})", s + 1) : "";
      if (std::all_of(held.begin(), held.end(), [](int64_t v) { return v % 32 == 0; })) {
        promote(c, CheckLevel::warn);
        c.details.push_back(fmt::format(
            "held-out {} is only ever a multiple of 32 ({}){}: a kernel assuming {} % 32 == 0 "
            "passes every held-out point",
            name, list, which, name));
      }
      if (std::none_of(held.begin(), held.end(), is_edge)) {
        promote(c, CheckLevel::warn);
        c.details.push_back(
            fmt::format("held-out {} has no edge size ({}){}: add 1 or a small prime (below "
                        "{}) where the task allows it",
                        name, list, which, kSmallPrime));
      }
      if (!generated) break;
    }
  }
  if (c.details.empty()) {
    c.reason = fmt::format(
        "{} held-out point{}{}, none visible; each varied param reaches a size that is not a "
        "multiple of 32 and an edge size",
        heldout.front().size(), heldout.front().size() == 1 ? "" : "s",
        generated ? fmt::format(" per run secret ({} secrets tried)", heldout.size()) : "");
  } else {
    c.reason = c.details.front();
    c.details.erase(c.details.begin());
  }
  return c;
}

CheckOutcome prompt_check(const TaskJob& job,
                          const std::vector<std::vector<model::ShapePoint>>& heldout,
                          const ValidateOptions& options) {
  std::string error;
  auto prompt = build_prompt(job, options.device,
                             prompts_dir(options.agents.prompts_dir, options.agents.stdlib_dir),
                             &error, options.warp_size);
  if (!prompt) return outcome("prompt", CheckLevel::fail, "the prompt does not build: " + error);
  CheckOutcome c = outcome("prompt", CheckLevel::pass, "");
  const model::Task& task = job.task;
  for (const fs::path& f : task.editable) {
    std::error_code ec;
    fs::path rel = fs::relative(f, task.dir, ec);
    std::string name = (ec || rel.empty() ? f.filename() : rel).string();
    if (prompt->find(name) == std::string::npos) {
      c.level = CheckLevel::fail;
      c.details.push_back("the prompt does not name the editable file " + name);
    }
  }
  if (!task.candidate.symbol.empty() && prompt->find(task.candidate.symbol) == std::string::npos) {
    c.level = CheckLevel::fail;
    c.details.push_back("the prompt does not name the entry " + task.candidate.symbol);
  }
  // Numbers the templates and cheatsheets themselves hold ("100 ms") are not the task's.
  std::set<int64_t> boilerplate;
  std::error_code ec;
  fs::path templates = prompts_dir(options.agents.prompts_dir, options.agents.stdlib_dir);
  for (auto it = fs::recursive_directory_iterator(templates, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    for (int64_t n : numbers_in(text.str())) boilerplate.insert(n);
  }
  // Values of a param that only held-out points have.
  std::map<std::string, std::set<int64_t>> shown;
  for (const auto& p : job.visible)
    for (const auto& [name, v] : p) shown[name].insert(v);
  std::set<int64_t> numbers = numbers_in(*prompt);
  std::set<int64_t> leaked;
  for (const auto& points : heldout)
    for (const auto& p : points)
      for (const auto& [name, v] : p) {
        if (v < 10 || shown[name].count(v) || !numbers.count(v) || boilerplate.count(v)) continue;
        if (!leaked.insert(v).second) continue;
        promote(c, v >= 100 ? CheckLevel::fail : CheckLevel::warn);
        c.details.push_back(
            fmt::format("the prompt holds {}, a held-out value of {} that no visible point has{}",
                        v, name, v >= 100 ? "" : " (perhaps by chance: a two-digit number)"));
      }
  if (c.details.empty()) {
    c.reason = fmt::format(
        "the prompt ({} bytes) names the {} editable file{}{} and holds no held-out value",
        prompt->size(), task.editable.size(), task.editable.size() == 1 ? "" : "s",
        task.candidate.symbol.empty() ? "" : " and the entry " + task.candidate.symbol);
  } else {
    c.reason = c.details.front();
    c.details.erase(c.details.begin());
  }
  return c;
}

std::optional<std::string> bytes_above_tensors(const model::Task& task,
                                               const std::vector<model::ShapePoint>& points) {
  if (!task.bytes) return std::nullopt;
  for (const auto& p : points) {
    double held = 0, said = 0;
    try {
      PointSpec spec = make_point_spec(task, p);
      for (size_t i = 0; i < task.tensors.size(); ++i) {
        double n = 1;
        for (int64_t d : spec.shapes[i]) n *= static_cast<double>(d);
        double bytes = n * static_cast<double>(dtype_size(task.tensors[i].dtype));
        held += bytes * (is_input(task.tensors[i]) && is_output(task.tensors[i]) ? 2 : 1);
      }
      said = lang::eval_number(task.bytes, p, task);
    } catch (const std::exception& e) {
      return fmt::format("`bytes` cannot be evaluated at [{}]: {}", format_point(p), e.what());
    }
    if (said > held * 1.0001)
      return fmt::format(
          "`bytes` says {:.4g} at [{}], but the task's tensors hold only {:.4g} (inputs read "
          "once, outputs written once): the physics floor would fail a kernel that moves only "
          "what it must ({:.2f}x too large)",
          said, format_point(p), held, said / held);
  }
  return std::nullopt;
}

}  // namespace kta::engine
