// Shared fixture for executor tests: a vector-add task on the fake device, candidates replayed
// from a temporary solutions folder.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "engine/agents/agent.h"
#include "engine/execute/executor.h"
#include "engine/plan/compile.h"
#include "tests/support/engine_fake_device.h"
#include "tests/support/engine_task_builder.h"

namespace kta::test {

namespace fs = std::filesystem;

inline std::string add_kernel(const FakeLaunch& l) {
  int64_t n = l.scalar(3);
  for (int64_t i = 0; i < n; ++i) l.ptr<float>(2)[i] = l.ptr<float>(0)[i] + l.ptr<float>(1)[i];
  return "";
}

class EngineFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    root =
        fs::temp_directory_path() / ("kta-engine-test-" + std::to_string(std::random_device{}()));
    fs::create_directories(root / "task");
    write(root / "task" / "ref.fake", "fake: ref\n");
    write(root / "task" / "add.fake", "fake: add\n");
    registry = std::make_shared<FakeRegistry>();
    registry->kernels["add"] = {add_kernel, 2e-3};
    registry->kernels["ref"] = {add_kernel, 5e-3};
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(root, ec);
  }

  static void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }

  model::Task task(const std::string& name = "vadd") {
    return vector_add_task(name, root / "task", "ref.fake", "add.fake");
  }

  // A plan of the given tasks replayed from root/solutions, candidates named by fake kernel.
  model::Plan replay_plan(const std::vector<std::pair<std::string, std::string>>& candidates) {
    model::Plan p;
    p.name = "test";
    p.file = root / "plan.kta";
    p.output = root / "run";
    for (const auto& [name, kernel] : candidates) {
      p.tasks.push_back(task(name));
      if (!kernel.empty()) write(root / "solutions" / name / "add.fake", "fake: " + kernel + "\n");
    }
    p.agents.push_back(engine::replay_agent("solutions"));
    return p;
  }

  std::vector<engine::TaskOutcome> run(const model::Plan& source, int jobs = 1,
                                       const std::string& secret = "s") {
    engine::PlanOptions po;
    po.device = "fake";
    po.secret = secret;
    po.quick = true;
    plan = engine::compile_plan(source, po);
    auto store = engine::ResultStore::open(plan.output);
    engine::ExecuteOptions eo;
    eo.jobs = jobs;
    eo.cache_dir = root / "cache";
    auto reg = registry;
    eo.make_device = [reg](engine::DeviceKey) { return std::make_unique<FakeDevice>(reg); };
    if (factory) eo.make_device = factory;
    auto out = engine::execute(plan, *store, eo);
    steps = store->steps();
    return out;
  }

  fs::path root;
  std::shared_ptr<FakeRegistry> registry;
  engine::Plan plan;
  std::vector<engine::StepRecord> steps;
  engine::DeviceFactory factory;  // set: used instead of a fresh FakeDevice per role
};

}  // namespace kta::test
