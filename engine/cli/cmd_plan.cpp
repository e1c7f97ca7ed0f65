// `kta plan FILE --explain`: what an evaluation would do, without running anything: tasks, their
// visible points with bytes/flops, the number of held-out points (never their values), gates,
// tolerances, timing, agents and device.
#include <iostream>

#include "engine/cli/commands.h"
#include "engine/inputs/host_tensor.h"
#include "engine/plan/compile.h"
#include "engine/plan/plan.h"
#include "lang/eval.h"
#include "lang/format.h"
#include "lang/grid.h"
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

void explain_task(std::ostream& os, const Task& t, const std::optional<Timing>& plan_timing) {
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
    os << fmt::format(
        "  tolerance   {}: atol {:g}, rtol {:g}{}{}{}\n", name, tol.atol, tol.rtol,
        tol.max_mismatch > 0 ? fmt::format(", max_mismatch {:g}", tol.max_mismatch) : "",
        tol.nan_equal ? ", nan_equal" : "", tol.preset.empty() ? "" : " (" + tol.preset + ")");
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
}

void explain_plan(std::ostream& os, const Plan& p) {
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
  os << fmt::format("  device      {}\n", p.device);
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
    explain_task(os, t, p.timing);
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
  cmd->footer("example: kta plan --explain examples/quickstart.kta");
  cmd->callback([&state, file] {
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
      explain_plan(std::cout, p);
      // The evaluation plan the engine compiles from it: jobs, steps and their order. Held-out
      // points are drawn from a throwaway secret here and shown only as a count.
      engine::PlanOptions po;
      po.device = p.device;
      po.secret = "explain";
      std::cout << '\n';
      engine::explain(engine::compile_plan(p, po), std::cout);
      first = false;
    }
    for (const Task& t : loaded->tasks) {
      if (!first) std::cout << '\n';
      explain_task(std::cout, t, std::nullopt);
      first = false;
    }
    state.exit_code = 0;
  });
}

}  // namespace kta::cli
