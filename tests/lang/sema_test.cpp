// Semantic checks and lowering to the model, on small task files in a temporary folder.
#include <gtest/gtest.h>

#include "lang/eval.h"
#include "lang/grid.h"
#include "support.h"

namespace kta::lang::test {
namespace {

struct SemaTest : ::testing::Test {
  TempDir dir;
  std::string out;
  void SetUp() override { dir.write("k.hip", "__global__ void k() {}\n"); }
  std::optional<Loaded> check(const std::string& text) {
    return load(dir.write("t.kta", text), out);
  }
};

TEST_F(SemaTest, ValidTaskLowersToTheModel) {
  auto r = check(task_text(
      "  gate correctness { seeds 5 }\n  gate performance { min_speedup 1.5 }\n  bytes 8 * N\n"));
  ASSERT_TRUE(r) << out;
  ASSERT_EQ(r->tasks.size(), 1u);
  const model::Task& t = r->tasks[0];
  EXPECT_EQ(t.name, "t");
  EXPECT_EQ(t.kind, model::TaskKind::hip2hip);
  ASSERT_EQ(t.tensors.size(), 2u);
  EXPECT_EQ(t.tensors[0].init->name, "normal");
  EXPECT_DOUBLE_EQ(t.tensors[0].init->arg("std")->numbers.at(0), 2.0);
  EXPECT_DOUBLE_EQ(t.tensors[0].init->arg("mean")->numbers.at(0), 0.0);  // default filled in
  EXPECT_EQ(t.reference.args, (std::vector<std::string>{"x", "y", "N"}));
  EXPECT_EQ(t.visible.size(), 2u);
  EXPECT_EQ(t.gates.correctness_seeds, 5);
  EXPECT_DOUBLE_EQ(*t.gates.min_speedup, 1.5);
  EXPECT_DOUBLE_EQ(t.tolerances.at("y").atol, 1e-5);
  EXPECT_EQ(t.tolerances.at("y").preset, "std.tolerances.f32_strict");
  EXPECT_EQ(eval_int(t.bytes, t.visible[1], t), 8 * 4096);
  EXPECT_EQ(eval_int(t.reference.launch->grid[0], t.visible[0], t), 4);
  EXPECT_EQ(t.editable.size(), 1u);
  EXPECT_EQ(t.content_hash.size(), 16u);
  EXPECT_TRUE(t.file.is_absolute());
}

TEST_F(SemaTest, HeldoutGateRequiresCorrectByDefault) {
  auto r = check(task_text(""));
  ASSERT_TRUE(r) << out;
  EXPECT_TRUE(r->tasks[0].gates.heldout_require_correct);
  r = check(task_text("  gate heldout { require none }\n"));
  ASSERT_TRUE(r) << out;
  EXPECT_FALSE(r->tasks[0].gates.heldout_require_correct);
  r = check(task_text("  gate heldout { require correct }\n"));
  ASSERT_TRUE(r) << out;
  EXPECT_TRUE(r->tasks[0].gates.heldout_require_correct);
}

TEST_F(SemaTest, HeldoutGateNamesABadValue) {
  EXPECT_FALSE(check(task_text("  gate heldout { require mostly }\n")));
  EXPECT_NE(out.find("'mostly'"), std::string::npos) << out;
  EXPECT_NE(out.find("correct"), std::string::npos) << out;
  EXPECT_FALSE(check(task_text("  gate heldout { min 3 }\n")));
  EXPECT_NE(out.find("'min'"), std::string::npos) << out;
}

TEST_F(SemaTest, ConstantsAreInlinedIntoModelExpressions) {
  std::string text = task_text("  bytes BYTES_PER * N\n");
  text = "const BYTES_PER = 4 * 2\n" + text;
  auto r = check(text);
  ASSERT_TRUE(r) << out;
  EXPECT_EQ(eval_int(r->tasks[0].bytes, {{"N", 10}}, r->tasks[0]), 80);
}

TEST_F(SemaTest, FixedParamsEvaluate) {
  std::string text = task_text("  flops alpha * N\n");
  text.replace(text.find("  param N: i64\n"), 15, "  param N: i64\n  param alpha: f32 = 0.5\n");
  auto r = check(text);
  ASSERT_TRUE(r) << out;
  EXPECT_DOUBLE_EQ(eval_number(r->tasks[0].flops, {{"N", 10}}, r->tasks[0]), 5.0);
  EXPECT_THROW(eval_int(r->tasks[0].flops, {{"N", 10}}, r->tasks[0]), EvalError);
}

TEST_F(SemaTest, ReportsEveryProblemOfAFileInOnePass) {
  std::string text = task_text("  gate correctness { seeds 0 }\n  sumary \"x\"\n");
  text.replace(text.find("f32[N]"), 6, "f32[Nn]");
  auto r = check(text);
  EXPECT_FALSE(r);
  EXPECT_NE(out.find("unknown param 'Nn'; did you mean 'N'?"), std::string::npos) << out;
  EXPECT_NE(out.find("'seeds' must be at least 1, found 0"), std::string::npos) << out;
  EXPECT_NE(out.find("unknown setting 'sumary' in task 't'; did you mean 'summary'?"),
            std::string::npos)
      << out;
}

TEST_F(SemaTest, HeldoutEqualToVisibleIsAWarningNotAnError) {
  auto r = check(task_text("  shapes heldout { N in [1000, 4096] }\n"));
  ASSERT_TRUE(r) << out;
  EXPECT_NE(out.find("warning: held-out point N=4096 is also a visible point"), std::string::npos)
      << out;
  EXPECT_EQ(r->tasks[0].heldout.size(), 2u);
}

TEST_F(SemaTest, DivisionByZeroAtAVisiblePointIsReported) {
  auto r = check(task_text("  bytes 8 * N / (N - 1024)\n"));
  EXPECT_FALSE(r);
  EXPECT_NE(out.find("cannot evaluate '8 * N / (N - 1024)' at N=1024: division by zero"),
            std::string::npos)
      << out;
}

TEST_F(SemaTest, TypeErrors) {
  EXPECT_FALSE(check(task_text("  bytes \"a\" * N\n")));
  EXPECT_NE(out.find("operator '*' cannot combine a string and an integer"), std::string::npos)
      << out;
  EXPECT_FALSE(check(task_text("  timing { budget 2 }\n")));
  EXPECT_NE(out.find("'budget' must be a duration, found an integer"), std::string::npos) << out;
  EXPECT_FALSE(check(task_text("", "shapes visible { N in [1024, 2.5] }")));
  EXPECT_NE(out.find("must be an integer, found a number"), std::string::npos) << out;
}

TEST_F(SemaTest, TimingAndToleranceBlocks) {
  auto r =
      check(task_text("  timing { mode batch  min_samples 20  max_noise 1%  budget 500ms }\n")
                .replace(task_text().find("tolerance y = std.tolerances.f32_strict"), 39,
                         "tolerance y { atol 1e-3  rtol 0  max_mismatch 0.01  nan_equal true }"));
  ASSERT_TRUE(r) << out;
  const model::Task& t = r->tasks[0];
  EXPECT_EQ(t.timing.mode, model::Timing::Mode::batch);
  EXPECT_EQ(t.timing.min_samples, 20);
  EXPECT_DOUBLE_EQ(t.timing.max_noise, 0.01);
  EXPECT_EQ(t.timing.budget_ns, 500'000'000);
  EXPECT_DOUBLE_EQ(t.tolerances.at("y").max_mismatch, 0.01);
  EXPECT_TRUE(t.tolerances.at("y").nan_equal);
}

TEST_F(SemaTest, PlanLoadsItsTasksAndAgents) {
  dir.write("tasks/a/a.kta", task_text());
  dir.write("tasks/a/k.hip", "");
  dir.write("tasks/b/b.kta", task_text());
  dir.write("tasks/b/k.hip", "");
  auto plan =
      dir.write("plan.kta",
                "import std.agents\nimport std.timing\n\nplan p {\n  tasks \"tasks/*\"\n"
                "  agent std.agents.echo(word: \"yo\")\n  agent std.agents.replay(dir: \"sol\")\n"
                "  device \"hip:1\"\n  heldout off\n  repeat 2\n  output \"out\"\n  timing "
                "std.timing.quick\n}\n");
  auto r = load(plan, out);
  ASSERT_TRUE(r) << out;
  ASSERT_EQ(r->plans.size(), 1u);
  const model::Plan& p = r->plans[0];
  EXPECT_EQ(p.tasks.size(), 2u);
  ASSERT_EQ(p.agents.size(), 2u);
  EXPECT_EQ(p.agents[0].decl.name, "std.agents.echo");
  EXPECT_EQ(p.agents[0].decl.command, (std::vector<std::string>{"echo", "{word}", "{prompt}"}));
  EXPECT_EQ(p.agents[0].decl.env.at("KTA_TEST"), "1");
  EXPECT_EQ(p.agents[0].decl.timeout_ns, 10'000'000'000);
  EXPECT_EQ(std::get<std::string>(p.agents[0].args.at("word")), "yo");
  EXPECT_TRUE(p.agents[1].decl.builtin);
  EXPECT_EQ(p.device, "hip:1");
  EXPECT_FALSE(p.heldout);
  EXPECT_EQ(p.repeat, 2);
  EXPECT_EQ(p.output, dir.path() / "out");
  EXPECT_EQ(p.timing->min_samples, 5);
}

TEST_F(SemaTest, FolderWithOneKtaFileLoads) {
  dir.write("one/t.kta", task_text());
  dir.write("one/k.hip", "");
  EXPECT_TRUE(load(dir.path() / "one", out)) << out;
  dir.write("two/a.kta", "");
  dir.write("two/b.kta", "");
  EXPECT_FALSE(load(dir.path() / "two", out));
  EXPECT_NE(out.find("holds 2 .kta files"), std::string::npos) << out;
}

TEST_F(SemaTest, ContentHashFollowsReferencedFiles) {
  auto a = check(task_text());
  ASSERT_TRUE(a) << out;
  dir.write("k.hip", "__global__ void k() { /* changed */ }\n");
  auto b = check(task_text());
  ASSERT_TRUE(b) << out;
  EXPECT_NE(a->tasks[0].content_hash, b->tasks[0].content_hash);
  auto c = check(task_text());
  EXPECT_EQ(b->tasks[0].content_hash, c->tasks[0].content_hash);
}

TEST(Eval, IntegerSemantics) {
  model::Task t;
  auto expr = [](int64_t v) {
    auto e = std::make_shared<ast::Expr>();
    e->node = ast::IntLit{v, std::to_string(v)};
    return model::ExprRef(e);
  };
  auto bin = [](ast::BinOp op, model::ExprRef a, model::ExprRef b) {
    auto e = std::make_shared<ast::Expr>();
    e->node = ast::Binary{op, a, b};
    return model::ExprRef(e);
  };
  EXPECT_EQ(eval_int(bin(ast::BinOp::div, expr(-7), expr(2)), {}, t), -3);  // truncates toward zero
  EXPECT_EQ(eval_int(bin(ast::BinOp::shl, expr(1), expr(40)), {}, t), int64_t(1) << 40);
  EXPECT_THROW(eval_int(bin(ast::BinOp::mul, expr(INT64_MAX), expr(2)), {}, t), EvalError);
  EXPECT_THROW(eval_int(bin(ast::BinOp::mod, expr(1), expr(0)), {}, t), EvalError);
  EXPECT_THROW(eval_int(bin(ast::BinOp::shl, expr(1), expr(64)), {}, t), EvalError);
}

// ---- tolerances over params (issue 16) ----

// A task with a reduction length K besides N; `tol` replaces the tolerance of y.
std::string reduction_task(const std::string& tol, const std::string& extra = "") {
  std::string text = task_text(extra, "shapes visible { N in [1024]; K in [16, 256] }");
  text.replace(text.find("  param N: i64\n"), 15,
               "  param N: i64\n  param K: i64\n  param SCALE: f32 = 2.0\n");
  text.replace(text.find("  tolerance y = std.tolerances.f32_strict\n"), 42, tol);
  return text;
}

TEST_F(SemaTest, ToleranceOverParamsIsEvaluatedPerPoint) {
  auto r = check(reduction_task(
      "  tolerance y { atol 1e-7 * K * SCALE  rtol 1e-6 * sqrt(K)  max_mismatch K / 4096.0 }\n"));
  ASSERT_TRUE(r) << out;
  const model::Task& t = r->tasks[0];
  const model::Tolerance& tol = t.tolerances.at("y");
  ASSERT_TRUE(tol.per_point());
  ASSERT_EQ(t.visible.size(), 2u);
  model::Tolerance at16 = tolerance_at(tol, t.visible[0], t);
  model::Tolerance at256 = tolerance_at(tol, t.visible[1], t);
  EXPECT_FALSE(at16.per_point());
  EXPECT_DOUBLE_EQ(at16.atol, 1e-7 * 16 * 2);
  EXPECT_DOUBLE_EQ(at256.atol, 1e-7 * 256 * 2);
  EXPECT_DOUBLE_EQ(at16.rtol, 1e-6 * 4);
  EXPECT_DOUBLE_EQ(at256.rtol, 1e-6 * 16);
  EXPECT_DOUBLE_EQ(at256.max_mismatch, 256 / 4096.0);
  // A point the grid never held (a held-out draw) evaluates the same way.
  model::Tolerance at4096 = tolerance_at(tol, {{"N", 7}, {"K", 4096}}, t);
  EXPECT_DOUBLE_EQ(at4096.atol, 1e-7 * 4096 * 2);
  EXPECT_THROW(tolerance_at(tol, {{"N", 7}, {"K", 8192}}, t), EvalError);  // max_mismatch > 1
  EXPECT_EQ(tolerance_text(tol),
            "atol 1e-7 * K * SCALE, rtol 1e-6 * sqrt(K), max_mismatch K / 4096.0");
  EXPECT_EQ(tolerance_text(at16), "atol 3.2e-06, rtol 4e-06, max_mismatch 0.00390625");
}

TEST_F(SemaTest, ConstantTolerancesAndPresetsStayConstant) {
  auto r = check(reduction_task("  tolerance y { atol 1e-5 * 2  rtol 0 }\n"));
  ASSERT_TRUE(r) << out;
  EXPECT_FALSE(r->tasks[0].tolerances.at("y").per_point());
  EXPECT_DOUBLE_EQ(r->tasks[0].tolerances.at("y").atol, 2e-5);
  r = check(reduction_task("  tolerance y = std.tolerances.f32_strict\n"));
  ASSERT_TRUE(r) << out;
  EXPECT_FALSE(r->tasks[0].tolerances.at("y").per_point());
  EXPECT_EQ(r->tasks[0].tolerances.at("y").preset, "std.tolerances.f32_strict");
}

TEST_F(SemaTest, ToleranceNamesTheNamesItMayUse) {
  EXPECT_FALSE(check(reduction_task("  tolerance y { atol 1e-7 * x  rtol 0 }\n")));
  EXPECT_NE(out.find("tensor 'x' cannot be used in a tolerance; a tolerance may use params (K, "
                     "N, SCALE) and constants"),
            std::string::npos)
      << out;
  EXPECT_FALSE(check(reduction_task("  tolerance y { atol 1e-7 * Q  rtol 0 }\n")));
  EXPECT_NE(out.find("unknown name 'Q' in a tolerance"), std::string::npos) << out;
  EXPECT_FALSE(check(reduction_task("  tolerance y { atol \"big\" * K  rtol 0 }\n")));
  EXPECT_FALSE(check(reduction_task("  tolerance y { atol 0.5 * (K - 100)  rtol 0 }\n")));
  EXPECT_NE(out.find("cannot evaluate '0.5 * (K - 100)' at N=1024, K=16: 'atol' must be at least "
                     "0, found -42"),
            std::string::npos)
      << out;
}

// ---- tuple axes (issue 16) ----

std::string box_task(const std::string& shapes, const std::string& heldout = "") {
  std::string text = task_text(heldout, shapes);
  text.replace(text.find("  param N: i64\n"), 15,
               "  param N: i64\n  param D: i64\n  param H: i64\n  param W: i64\n");
  return text;
}

TEST_F(SemaTest, TupleAxisIsOneAxisOfTheProduct) {
  auto r = check(box_task(
      "shapes visible {\n    N in [1, 2]\n    (D, H, W) in [(3, 5, 7), (17, 33, 65)]\n  }"));
  ASSERT_TRUE(r) << out;
  const auto& v = r->tasks[0].visible;
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(point_text(v[0]), "N=1, D=3, H=5, W=7");
  EXPECT_EQ(point_text(v[1]), "N=1, D=17, H=33, W=65");
  EXPECT_EQ(point_text(v[2]), "N=2, D=3, H=5, W=7");
  EXPECT_EQ(point_text(v[3]), "N=2, D=17, H=33, W=65");
}

TEST_F(SemaTest, TupleAxisWithDerivedAxesAndFilters) {
  dir.write("k.hip", "");
  auto r =
      check(box_task("shapes visible {\n    (D, H) in [(2, 4), (8, 16), (32, 64)]\n    W = D * H\n"
                     "    N in [10, 20]\n    where D * N <= 160\n  }"));
  ASSERT_TRUE(r) << out;
  std::vector<std::string> got;
  for (const auto& p : r->tasks[0].visible) got.push_back(point_text(p));
  EXPECT_EQ(got, (std::vector<std::string>{"D=2, H=4, W=8, N=10", "D=2, H=4, W=8, N=20",
                                           "D=8, H=16, W=128, N=10", "D=8, H=16, W=128, N=20"}));
}

TEST_F(SemaTest, TupleAxisMistakes) {
  EXPECT_FALSE(check(box_task("shapes visible { N in [1]; (D, H, W) in [(1, 2), (3, 4, 5)] }")));
  EXPECT_NE(out.find("tuple (1, 2) of axis (D, H, W) has 2 values, expected 3"), std::string::npos)
      << out;
  EXPECT_FALSE(check(box_task("shapes visible { N in [1]; (D, H, Z) in [(1, 2, 3)]; W in [1] }")));
  EXPECT_NE(out.find("axis 'Z' is not a shape param of task 't'"), std::string::npos) << out;
  EXPECT_FALSE(check(box_task("shapes visible { N in [1]; (D, H, D) in [(1, 2, 3)]; W in [1] }")));
  EXPECT_NE(out.find("axis 'D' is bound more than once"), std::string::npos) << out;
  EXPECT_FALSE(check(box_task("shapes visible { N in [1]; (D, H, W) in range(1, 4) }")));
  EXPECT_NE(out.find("values of tuple axis (D, H, W) must be a list of tuples"), std::string::npos)
      << out;
  EXPECT_FALSE(check(box_task("shapes visible { N in [1]; (D, H, W) in [(1, 2, N)] }")));
}

TEST_F(SemaTest, PlanDeviceWarpSize) {
  dir.write("tasks/a/a.kta", task_text());
  dir.write("tasks/a/k.hip", "");
  auto plan = [&](const std::string& device) {
    return dir.write("plan.kta",
                     "import std.agents\n\nplan p {\n  tasks \"tasks/*\"\n"
                     "  agent std.agents.replay(dir: \"sol\")\n  device " +
                         device + "\n}\n");
  };
  auto r = load(plan("cpu(warp: 32)"), out);
  ASSERT_TRUE(r) << out;
  EXPECT_EQ(r->plans[0].device, "cpu");
  EXPECT_EQ(r->plans[0].warp_size, 32);
  r = load(plan("hip(warp: 64)"), out);
  ASSERT_TRUE(r) << out;
  EXPECT_EQ(r->plans[0].device, "hip");
  EXPECT_EQ(r->plans[0].warp_size, 64);
  r = load(plan("cpu"), out);
  ASSERT_TRUE(r) << out;
  EXPECT_EQ(r->plans[0].warp_size, 0);
  EXPECT_FALSE(load(plan("cpu(warp: 16)"), out));
  EXPECT_NE(out.find("warp size must be 32 or 64, found 16"), std::string::npos) << out;
  EXPECT_FALSE(load(plan("cpu(32)"), out));
  EXPECT_NE(out.find("device option '32' is unknown"), std::string::npos) << out;
  EXPECT_FALSE(load(plan("gpu(warp: 32)"), out));
  EXPECT_NE(out.find("found 'gpu'"), std::string::npos) << out;
}

}  // namespace
}  // namespace kta::lang::test
