// The inputs Python sees are the engine's: for the same task, point and seed, the bytes a torch
// function receives (copied back out by copy_all.py) equal, bit for bit, the bytes the HIP path
// uploads to the cpu device and what its HIP launcher copies out, for f32, f16, bf16 and i32.
#include <gtest/gtest.h>

#include "engine/device/device.h"
#include "engine/device/python/python_device.h"
#include "engine/execute/bindings.h"
#include "lang/load.h"

namespace kta::engine {
namespace {

namespace fs = std::filesystem;

model::Task load_task(const fs::path& file) {
  lang::SourceManager sm;
  lang::DiagnosticEngine diags(sm);
  auto loaded = lang::load_file(file, diags);
  EXPECT_TRUE(loaded && diags.error_count() == 0) << diags.str();
  return loaded->tasks.at(0);
}

TEST(RunnerInputs, PythonSeesTheBytesTheHipPathUploads) {
  model::Task task = load_task(fs::path(KTA_RUNNER_CASES) / "copy_all" / "copy_all.kta");
  ASSERT_EQ(task.candidate.flavor, model::Flavor::hip);
  DeviceOptions o;
  o.cache_dir = KTA_RUNNER_TEST_CACHE;
  auto cpu = make_device("cpu", o);
  auto py = std::make_unique<PythonDevice>(
      std::make_shared<RunnerProcess>(runner_options(settings_from(process_environment()))), o);

  CompileRequest hip;
  hip.source = task.candidate.file;
  hip.entry = task.candidate.symbol;
  hip.launcher = true;
  CompileResult hc = cpu->compile(hip);
  ASSERT_TRUE(hc.ok) << hc.error << hc.log;
  CompileRequest torch;
  torch.source = task.reference.file;
  torch.entry = task.reference.symbol;
  torch.flavor = "torch";
  torch.mode = "function";
  CompileResult pc = py->compile(torch);
  ASSERT_TRUE(pc.ok) << pc.error << pc.log;
  Impl hip_impl{ImplRole::candidate, cpu.get(), hc.module, task.candidate};
  Impl py_impl{ImplRole::reference, py.get(), pc.module, task.reference};

  PointSpec spec = make_point_spec(task, task.visible.at(0));
  for (uint64_t seed : {0u, 1u, 7u}) {
    HostSet in = make_inputs(task, spec, seed);
    DeviceSet hs(*cpu, task, spec), ps(*py, task, spec);
    hs.upload_inputs(in);
    ps.upload_inputs(in);
    hs.poison_outputs(0);
    ps.poison_outputs(1);
    ASSERT_TRUE(hs.launch(hip_impl).ok);
    LaunchResult pr = ps.launch(py_impl);
    ASSERT_TRUE(pr.ok) << pr.error;
    HostSet hip_in = hs.download_inputs(), hip_out = hs.download_outputs();
    HostSet py_in = ps.download_inputs(), py_out = ps.download_outputs();
    for (size_t i = 0; i < 4; ++i) {
      SCOPED_TRACE(task.tensors[i].name + " seed " + std::to_string(seed));
      ASSERT_FALSE(in[i].bytes.empty());
      EXPECT_EQ(hip_in[i].bytes, in[i].bytes);
      EXPECT_EQ(py_in[i].bytes, in[i].bytes);        // Python did not change its inputs
      EXPECT_EQ(hip_out[i + 4].bytes, in[i].bytes);  // what the HIP launcher saw
      EXPECT_EQ(py_out[i + 4].bytes, in[i].bytes);   // what the torch function saw
    }
  }
}

}  // namespace
}  // namespace kta::engine
