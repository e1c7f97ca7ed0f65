// `kta plan FILE --explain`: what an evaluation would do, without running anything: tasks, their
// visible points with bytes/flops, the number of held-out points (never their values), gates,
// tolerances, timing, agents and device.
#include <algorithm>
#include <iostream>

#include "engine/cli/commands.h"
#include "engine/inputs/host_tensor.h"
#include "engine/plan/compile.h"
#include "engine/plan/plan.h"
#include "lang/eval.h"
#include "lang/format.h"
#include "lang/grid.h"
#include "lang/heldout.h"
#include "lang/load.h"

namespace kta::cli {
namespace {

namespace fs = std::filesystem;
using namespace kta::model;

std::string rel(const fs::path& p) {
  std::error_code ec;
  fs::path r = fs::relative(p, fs::current_path(ec), ec);
  return ec || r.empty() ? p.string() : r.string();
}

const char* scalar_name(ScalarType t) {
  static const char* names[] = {"i32", "i64", "u32", "u64", "f32", "f64", "bool"};
  return names[static_cast<int>(t)];
}
const char* role_name(TensorRole r) {
  static const char* names[] = {"input", "output", "inout"};
  return names[static_cast<int>(r)];
}

std::string expr(const ExprRef& e) { return e ? lang::format_expr(*e) : "1"; }

std::string geometry(const ExprRef (&g)[3]) {
  if (!g[1] && !g[2]) return expr(g[0]);
  return fmt::format("({}, {}, {})", expr(g[0]), expr(g[1]), expr(g[2]));
}

std::string entry_text(const Entry& e) {
  static const char* flavors[] = {"hip", "torch", "triton"};
  static const char* modes[] = {"kernel", "launcher", "module", "function"};
  std::string s = fmt::format("{} {} {}", flavors[int(e.flavor)], modes[int(e.mode)], e.symbol);
  if (e.mode == EntryMode::kernel) {
    std::string args;
    for (const auto& a : e.args) args += (args.empty() ? "" : ", ") + a;
    s += "(" + args + ")";
  }
  if (e.mode == EntryMode::module && !e.init_args.empty()) {
    std::string args;
    for (const auto& a : e.init_args) args += (args.empty() ? "" : ", ") + expr(a);
    s += "(" + args + ")";  // the constructor's arguments, as the task writes them
  }
  s += " in " + rel(e.file);
  if (e.launch) {
    s += fmt::format(", grid {} block {}", geometry(e.launch->grid), geometry(e.launch->block));
    if (e.launch->shared_bytes) s += ", shared " + expr(e.launch->shared_bytes);
  }
  return s;
}

std::string value(const Value& v) { return lang::value_text(v); }

// `normal(mean: 0, std: 1)`: arguments in the declaration's order, lists and components as
// written.
std::string distribution_text(const Distribution& d) {
  std::string args;
  for (const DistributionArg& a : d.args) {
    std::string v;
    if (!a.components.empty()) {
      for (const Distribution& c : a.components)
        v += (v.empty() ? "" : ", ") + distribution_text(c);
    } else {
      v = fmt::format("{:g}", fmt::join(a.numbers, ", "));
    }
    args +=
        fmt::format("{}{}: {}", args.empty() ? "" : ", ", a.name, a.is_list ? "[" + v + "]" : v);
  }
  return fmt::format("{}({})", d.name, args);
}

std::string timing_text(const Timing& t) {
  return fmt::format(
      "{}, {}..{} samples, stop at noise <= {:g}%, budget {:g} s, warmup {}",
      t.mode == Timing::Mode::cold ? "cold (L2 flushed before each sample)" : "batch",
      t.min_samples, t.max_samples, t.max_noise * 100, double(t.budget_ns) / 1e9, t.warmup);
}

std::string si(double v, const char* unit) {
  const char* prefixes[] = {"", "K", "M", "G", "T", "P"};
  int i = 0;
  while (std::abs(v) >= 1000 && i < 5) v /= 1000, ++i;
  return fmt::format("{:.4g} {}{}", v, prefixes[i], unit);
}

// "atol 1e-07 (at K=1) .. 0.0004096 (at K=4096)": one field of a tolerance over the points.
std::string field_span(const std::vector<std::pair<double, const ShapePoint*>>& values,
                       const char* key) {
  auto [lo, hi] = std::minmax_element(
      values.begin(), values.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (lo->first == hi->first) return fmt::format("{} {:g}", key, lo->first);
  return fmt::format("{} {:g} (at {}) .. {:g} (at {})", key, lo->first,
                     lang::point_text(*lo->second), hi->first, lang::point_text(*hi->second));
}

// `--heldout-ranges`: what the task's generator can draw (no secret involved: every choice its
// moves can make), each param's range, and each tolerance over params at the extremes.
void explain_heldout_ranges(std::ostream& os, const Task& t) {
  std::optional<lang::HeldoutPreview> preview = lang::preview_heldout(t);
  if (!preview) {
    os << "    ranges    only a generator's draws are previewed"
       << (t.heldout.empty() ? " (this task has none)\n" : "; explicit points stay private\n");
    return;
  }
  os << fmt::format("    can draw  {} distinct point{}{}, whatever the secret\n",
                    preview->points.size(), preview->points.size() == 1 ? "" : "s",
                    preview->truncated ? " (stopped early: a subset)" : "");
  for (const lang::ParamRange& r : preview->ranges)
    os << fmt::format("    range     {}: {} .. {}\n", r.param, r.lo, r.hi);
  for (const auto& [name, tol] : t.tolerances) {
    if (!tol.per_point() || preview->points.empty()) continue;
    std::vector<std::pair<double, const ShapePoint*>> atol, rtol, mm;
    try {
      for (const ShapePoint& p : preview->points) {
        Tolerance at = lang::tolerance_at(tol, p, t);
        atol.emplace_back(at.atol, &p);
        rtol.emplace_back(at.rtol, &p);
        mm.emplace_back(at.max_mismatch, &p);
      }
    } catch (const lang::EvalError& e) {
      os << fmt::format("    tolerance {}: cannot be evaluated at {}: {}\n", name,
                        lang::point_text(preview->points[atol.size()]), e.what());
      continue;
    }
    std::string line = field_span(atol, "atol") + "; " + field_span(rtol, "rtol");
    if (tol.max_mismatch_expr || tol.max_mismatch > 0)
      line += "; " + field_span(mm, "max_mismatch");
    os << fmt::format("    tolerance {}: {}\n", name, line);
  }
}

void explain_task(std::ostream& os, const Task& t, const std::optional<Timing>& plan_timing,
                  bool heldout_ranges) {
  os << fmt::format("task {} ({})\n", t.name, engine::kind_name(t.kind));
  if (!t.summary.empty()) os << fmt::format("  summary     {}\n", t.summary);
  os << fmt::format("  file        {}  (content hash {})\n", rel(t.file), t.content_hash);
  for (const Param& p : t.params)
    os << fmt::format("  param       {}: {}{}\n", p.name, scalar_name(p.type),
                      p.fixed ? " = " + value(*p.fixed) : " (shape)");
  for (const Tensor& x : t.tensors) {
    std::string dims;
    for (const auto& d : x.shape) dims += (dims.empty() ? "" : ", ") + expr(d);
    std::string init = x.init ? " = " + distribution_text(*x.init) : "";
    os << fmt::format("  {:<11} {}: {}[{}]{}\n", role_name(x.role), x.name,
                      engine::dtype_name(x.dtype), dims, init);
  }
  os << fmt::format("  reference   {}\n", entry_text(t.reference));
  os << fmt::format("  baseline    {}\n", entry_text(t.baseline));
  if (t.candidate.file != t.baseline.file || t.candidate.flavor != t.baseline.flavor)
    os << fmt::format("  candidate   {}\n", entry_text(t.candidate));
  for (const auto& e : t.editable) os << fmt::format("  editable    {}\n", rel(e));
  for (const auto& [name, tol] : t.tolerances)
    os << fmt::format("  tolerance   {}: {}{}{}{}\n", name, lang::tolerance_text(tol),
                      tol.nan_equal ? ", nan_equal" : "",
                      tol.per_point() ? " (evaluated at each shape point)" : "",
                      tol.preset.empty() ? "" : " (" + tol.preset + ")");
  os << fmt::format(
      "  gates       compile; correctness with {} seed{}; {}; {}\n", t.gates.correctness_seeds,
      t.gates.correctness_seeds == 1 ? "" : "s",
      t.gates.min_speedup ? fmt::format("performance min_speedup {:g}", *t.gates.min_speedup)
                          : "performance: timing only",
      t.gates.audit_fail_on ? "audit fails on " + *t.gates.audit_fail_on : "audit reports only");
  os << fmt::format("  timing      {}{}\n", timing_text(plan_timing ? *plan_timing : t.timing),
                    plan_timing ? " (from the plan)" : "");
  if (t.bytes) os << fmt::format("  bytes       {}\n", expr(t.bytes));
  if (t.flops) os << fmt::format("  flops       {}\n", expr(t.flops));
  os << fmt::format("  visible     {} point{}\n", t.visible.size(),
                    t.visible.size() == 1 ? "" : "s");
  for (const ShapePoint& p : t.visible) {
    std::string line = "    " + lang::point_text(p);
    try {
      if (t.bytes) line += "  bytes " + si(lang::eval_number(t.bytes, p, t), "B");
      if (t.flops) line += "  flops " + si(lang::eval_number(t.flops, p, t), "");
      for (const auto& [name, tol] : t.tolerances)
        if (tol.per_point())
          line +=
              fmt::format("  {}: {}", name, lang::tolerance_text(lang::tolerance_at(tol, p, t)));
    } catch (const lang::EvalError& e) {
      line += std::string("  (") + e.what() + ")";
    }
    os << line << '\n';
  }
  if (t.heldout_generator)
    os << fmt::format(
        "  held-out    {} point{} drawn by {} from the run secret (values not shown)\n",
        t.heldout_generator->count, t.heldout_generator->count == 1 ? "" : "s",
        t.heldout_generator->name);
  else if (!t.heldout.empty())
    os << fmt::format("  held-out    {} point{} (values not shown)\n", t.heldout.size(),
                      t.heldout.size() == 1 ? "" : "s");
  else
    os << "  held-out    none\n";
  if (heldout_ranges) explain_heldout_ranges(os, t);
}

void explain_plan(std::ostream& os, const Plan& p, bool heldout_ranges) {
  os << fmt::format("plan {} ({})\n", p.name, rel(p.file));
  for (const AgentUse& a : p.agents) {
    std::string args;
    for (const auto& [k, v] : a.args)
      args += fmt::format("{}{}: {}", args.empty() ? "" : ", ", k, value(v));
    os << fmt::format("  agent       {}({}){}\n", a.decl.name, args,
                      a.decl.builtin ? " (built in)" : "");
    if (!a.decl.command.empty()) {
      std::string cmd;
      for (const auto& c : a.decl.command) cmd += (cmd.empty() ? "" : " ") + c;
      os << fmt::format("    command   {}\n    timeout   {:g} s\n", cmd,
                        double(a.decl.timeout_ns) / 1e9);
    }
  }
  os << fmt::format("  device      {}{}\n", p.device,
                    p.warp_size != 0 ? fmt::format(" (warp {})", p.warp_size) : "");
  os << fmt::format("  held-out    {}\n", p.heldout ? "on" : "off");
  os << fmt::format("  repeat      {}\n", p.repeat);
  os << fmt::format("  output      {}\n", rel(p.output));
  if (p.timing) os << fmt::format("  timing      {}\n", timing_text(*p.timing));
  size_t visible = 0;
  for (const Task& t : p.tasks) visible += t.visible.size();
  os << fmt::format(
      "  steps       {} task{} x {} agent{} x {} repeat{}; {} visible shape point{} in all\n",
      p.tasks.size(), p.tasks.size() == 1 ? "" : "s", p.agents.size(),
      p.agents.size() == 1 ? "" : "s", p.repeat, p.repeat == 1 ? "" : "s", visible,
      visible == 1 ? "" : "s");
  for (const Task& t : p.tasks) {
    os << '\n';
    explain_task(os, t, p.timing, heldout_ranges);
  }
}

}  // namespace

void add_plan_command(CLI::App& app, CliState& state) {
  auto* cmd = app.add_subcommand(
      "plan", "print what an evaluation of a plan or task would do, running nothing");
  auto file = std::make_shared<std::string>();
  auto explain = std::make_shared<bool>(false);
  cmd->add_option("file", *file, "a plan file, a task file, or a folder holding one .kta file")
      ->required();
  cmd->add_flag("--explain", *explain,
                "explain every task, shape point, gate and tolerance (the default)");
  auto heldout_ranges = std::make_shared<bool>(false);
  cmd->add_flag("--heldout-ranges", *heldout_ranges,
                "for authors: per param, the range of values the held-out generator can draw "
                "(no secret needed), and tolerances over params at its extremes");
  cmd->footer("example: kta plan --explain examples/quickstart.kta");
  cmd->callback([&state, file, heldout_ranges] {
    lang::SourceManager sources;
    lang::DiagnosticEngine diags(sources);
    auto loaded = lang::load_file(*file, diags, state.load_options());
    diags.print(std::cerr, false);
    if (!loaded) {
      state.exit_code = 1;
      return;
    }
    if (loaded->plans.empty() && loaded->tasks.empty()) {
      std::cerr << "kta: error: '" << *file << "' declares no task or plan\n";
      state.exit_code = 1;
      return;
    }
    bool first = true;
    for (const Plan& p : loaded->plans) {
      if (!first) std::cout << '\n';
      explain_plan(std::cout, p, *heldout_ranges);
      // The evaluation plan the engine compiles from it: jobs, steps and their order. Held-out
      // points are drawn from a throwaway secret here and shown only as a count.
      engine::PlanOptions po;
      po.device = p.device;
      po.warp_size = p.warp_size;
      po.secret = "explain";
      std::cout << '\n';
      engine::explain(engine::compile_plan(p, po), std::cout);
      first = false;
    }
    for (const Task& t : loaded->tasks) {
      if (!first) std::cout << '\n';
      explain_task(std::cout, t, std::nullopt, *heldout_ranges);
      first = false;
    }
    state.exit_code = 0;
  });
}

}  // namespace kta::cli
