// Workspaces: what a fresh one holds (and does not), the visible-only task view, the ./check
// script, snapshots and what they tell; the prompt built from the task.
#include "engine/agents/workspace.h"

#include <sys/stat.h>

#include <algorithm>

#include "engine/agents/agent_run.h"
#include "engine/agents/prompt.h"
#include "engine/settings/settings.h"
#include "tests/agents/agents_test_support.h"

namespace {

using namespace kta;
using namespace kta::test;

class Workspace : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = scratch_dir("kta-workspace");
    plan = vadd_plan(dir / "run");
    ASSERT_EQ(plan.jobs.size(), 1u);
    ASSERT_FALSE(plan.jobs[0].heldout.empty());
    ws = dir / "run" / "work" / "vadd" / "x" / "0";
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(ws / "task", fs::perms::owner_all, ec);
    fs::remove_all(dir, ec);
  }
  fs::path dir, ws;
  engine::Plan plan;
};

bool writable_by_mode(const fs::path& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && (st.st_mode & S_IWUSR);
}

TEST_F(Workspace, HoldsTheEditableFilesAndAReadOnlyVisibleView) {
  auto err =
      engine::make_workspace(plan.jobs[0], ws, engine::WorkspaceSpec{"/opt/kta/bin/kta", "cpu"});
  ASSERT_FALSE(err) << *err;
  EXPECT_TRUE(writable_by_mode(ws / "vadd.hip"));
  for (const char* f : {"task/task.kta", "task/vadd.hip", "task/vadd_ref.hip"}) {
    EXPECT_TRUE(fs::is_regular_file(ws / f)) << f;
    EXPECT_FALSE(writable_by_mode(ws / f)) << f;
  }
  EXPECT_FALSE(writable_by_mode(ws / "task"));
  std::set<std::string> names;
  for (const auto& e : fs::recursive_directory_iterator(ws))
    names.insert(e.path().lexically_relative(ws).string());
  EXPECT_EQ(names, (std::set<std::string>{"check", "task", "task/task.kta", "task/vadd.hip",
                                          "task/vadd_ref.hip", "vadd.hip"}));
  std::string view = slurp(ws / "task" / "task.kta");
  EXPECT_EQ(view.find("heldout"), std::string::npos) << view;
  EXPECT_EQ(view.find("//"), std::string::npos) << view;
  for (const auto& point : plan.jobs[0].heldout)
    for (const auto& [name, v] : point) EXPECT_FALSE(mentions_number(view, v)) << v << "\n" << view;
  EXPECT_NE(view.find("N in [1024, 4096]"), std::string::npos) << view;
  // The view is a task kta accepts, with the same visible grid and no held-out one.
  lang::SourceManager sources;
  lang::DiagnosticEngine diags(sources);
  auto loaded = lang::load_file(ws / "task" / "task.kta", diags);
  ASSERT_TRUE(loaded && loaded->tasks.size() == 1u);
  EXPECT_EQ(loaded->tasks[0].visible, vadd_task().visible);
  EXPECT_TRUE(loaded->tasks[0].heldout.empty());
  EXPECT_FALSE(loaded->tasks[0].heldout_generator);
  std::string check = slurp(ws / "check");
  EXPECT_NE(check.find("'/opt/kta/bin/kta' eval \"$here/task/task.kta\" --device cpu"),
            std::string::npos)
      << check;
  EXPECT_NE(check.find("cp \"$here/vadd.hip\" \"$here/.check/solutions/vadd/vadd.hip\""),
            std::string::npos)
      << check;
}

TEST_F(Workspace, AFreshWorkspaceReplacesAnOldOne) {
  ASSERT_FALSE(engine::make_workspace(plan.jobs[0], ws, {}));
  write_file(ws / "stale.txt", "old");
  ASSERT_FALSE(engine::make_workspace(plan.jobs[0], ws, {}));
  EXPECT_FALSE(fs::exists(ws / "stale.txt"));
}

TEST_F(Workspace, SnapshotsTellWhatChanged) {
  ASSERT_FALSE(engine::make_workspace(plan.jobs[0], ws, {}));
  std::map<std::string, fs::path> baseline = {{"vadd.hip", plan.jobs[0].task.editable[0]}};
  auto before = engine::snapshot(ws);
  auto same = engine::compare_snapshots(before, engine::snapshot(ws), baseline);
  EXPECT_TRUE(same.unchanged);
  EXPECT_TRUE(same.editable_changed.empty());
  EXPECT_TRUE(same.other.empty() && same.readonly_edited.empty());

  write_file(ws / "vadd.hip", "// new kernel\n");
  write_file(ws / "notes.txt", "x");
  write_file(ws / ".check" / "run" / "results.json", "{}");  // ./check's scratch is not a change
  fs::permissions(ws / "task", fs::perms::owner_all, fs::perm_options::add);
  fs::permissions(ws / "task" / "vadd_ref.hip", fs::perms::owner_write, fs::perm_options::add);
  write_file(ws / "task" / "vadd_ref.hip", "// edited\n");
  fs::remove(ws / "check");
  auto c = engine::compare_snapshots(before, engine::snapshot(ws), baseline);
  EXPECT_FALSE(c.unchanged);
  EXPECT_EQ(c.editable_changed, std::vector<std::string>{"vadd.hip"});
  EXPECT_EQ(c.readonly_edited, std::vector<std::string>{"task/vadd_ref.hip"});
  EXPECT_EQ(c.other, (std::vector<std::string>{"deleted check", "created notes.txt"}));
}

TEST_F(Workspace, PromptListsVisibleShapesOnly) {
  fs::path prompts = prompts_with_cheatsheets(dir / "prompts");
  std::string error;
  auto prompt = engine::build_prompt(plan.jobs[0], "cpu", prompts, &error);
  ASSERT_TRUE(prompt) << error;
  EXPECT_NE(prompt->find("- N=1024\n- N=4096\n"), std::string::npos) << *prompt;
  EXPECT_NE(prompt->find("also tested on unseen shapes"), std::string::npos);
  EXPECT_NE(prompt->find("`vadd.hip` defines `__global__ void vadd(const float* x, const float* y, "
                         "float* z, int64_t N)`"),
            std::string::npos)
      << *prompt;
  EXPECT_NE(prompt->find("z = x + y over a contiguous f32 vector"), std::string::npos);
  EXPECT_NE(prompt->find("speedup over the baseline of at least 1x"), std::string::npos);
  EXPECT_NE(prompt->find("`z`: atol"), std::string::npos);
  EXPECT_EQ(prompt->find("{{"), std::string::npos);
  for (const auto& point : plan.jobs[0].heldout)
    for (const auto& [name, v] : point) EXPECT_FALSE(mentions_number(*prompt, v)) << v;
  EXPECT_EQ(engine::arch_cheatsheet("cpu"), "amd-cdna3");
  EXPECT_EQ(engine::language_cheatsheet(model::TaskKind::triton2triton), "triton");
}

TEST_F(Workspace, PromptNamesTheDeviceItRunsOn) {
  fs::path prompts = prompts_with_cheatsheets(dir / "prompts");
  std::string error;
  auto cpu = engine::build_prompt(plan.jobs[0], "cpu", prompts, &error);
  ASSERT_TRUE(cpu) << error;
  EXPECT_NE(cpu->find("kta's cpu device"), std::string::npos) << *cpu;
  auto gpu = engine::build_prompt(plan.jobs[0], "hip:1", prompts, &error);
  ASSERT_TRUE(gpu) << error;
  EXPECT_NE(gpu->find("the GPU device `hip:1`"), std::string::npos) << *gpu;
  EXPECT_EQ(cpu->find("the GPU device"), std::string::npos);
  const bool nvidia = fs::exists("/proc/driver/nvidia/version");
  EXPECT_EQ(engine::arch_cheatsheet("hip:0"), nvidia ? "nvidia-hopper" : "amd-cdna3");
  EXPECT_EQ(engine::arch_cheatsheet("fake"), "amd-cdna3");
}

TEST_F(Workspace, PromptStatesTheRunsWarpSize) {
  fs::path prompts = prompts_with_cheatsheets(dir / "prompts");
  std::string error;
  auto w32 = engine::build_prompt(plan.jobs[0], "cpu", prompts, &error, 32);
  ASSERT_TRUE(w32) << error;
  EXPECT_NE(w32->find("Warp size: 32"), std::string::npos) << *w32;
  auto unset = engine::build_prompt(plan.jobs[0], "hip:0", prompts, &error);
  ASSERT_TRUE(unset) << error;
  EXPECT_EQ(unset->find("Warp size"), std::string::npos) << *unset;
}

TEST_F(Workspace, PromptNamesAMissingCheatsheet) {
  fs::create_directories(dir / "bare");
  fs::copy_file(engine::prompts_dir() / "optimize.md", dir / "bare" / "optimize.md");
  std::string error;
  EXPECT_FALSE(engine::build_prompt(plan.jobs[0], "cpu", dir / "bare", &error));
  EXPECT_EQ(error,
            "missing cheatsheet " + (dir / "bare" / "cheatsheets" / "amd-cdna3.md").string());
  EXPECT_FALSE(engine::build_prompt(plan.jobs[0], "cpu", dir / "none", &error));
  EXPECT_EQ(error, "missing prompt template " + (dir / "none" / "optimize.md").string());
}

TEST_F(Workspace, AgentRunTakesBackPlainFilesOnly) {
  fs::path prompts = prompts_with_cheatsheets(dir / "prompts");
  model::AgentUse agent;
  agent.decl.name = "linker";
  agent.decl.command = {"sh", "-c", "rm vadd.hip && ln -s /etc/hostname vadd.hip"};
  agent.decl.timeout_ns = 20'000'000'000;
  engine::Plan p = vadd_plan(dir / "run", agent);
  ASSERT_EQ(p.jobs.size(), 1u);
  const engine::TaskJob& job = p.jobs[0];
  fs::path workspace = dir / "run" / "work" / "vadd" / "linker" / "0";
  engine::AgentRunOptions o;
  o.run_dir = dir / "run";
  o.sandbox = "off";
  o.prompts_dir = prompts;
  o.environment = engine::process_environment();
  engine::AgentRun run = engine::run_command_agent(job, workspace, o);
  ASSERT_TRUE(run.ran) << run.error;
  EXPECT_EQ(run.process.status(), "exit 0") << slurp(dir / "run" / run.log);
  EXPECT_NE(std::find(run.notes.begin(), run.notes.end(),
                      "editable file replaced by a link: vadd.hip (baseline used)"),
            run.notes.end());
  fs::path taken = dir / "run" / "candidates" / "vadd" / "linker" / "0" / "vadd.hip";
  EXPECT_FALSE(fs::is_symlink(taken));
  EXPECT_EQ(slurp(taken), slurp(job.task.editable[0]));
  EXPECT_EQ(job.candidate[0].source, taken);
  EXPECT_EQ(run.log, fs::path("logs") / "vadd.linker.0.log");
}

}  // namespace
