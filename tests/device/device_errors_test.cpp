// What a GPU would refuse or a broken kernel does: deadlocks, invalid geometry, shared memory
// over the limit, device asserts, compile errors at the right line, signature mismatches.
#include "engine/device/cpu/cpu_device.h"
#include "engine/device/cpu/kernel_build.h"
#include "support/device_test_support.h"

namespace kta::test {
namespace {

class Errors : public ::testing::Test {
 protected:
  cpu::CpuDevice dev{device_test_options()};
};

TEST_F(Errors, BarrierNotReachedByAllThreadsIsADeadlock) {
  Buffer by = dev.alloc(4 * 64);
  uint64_t m = compile_kernel(dev, "deadlock.hip", "deadlock");
  auto r = dev.launch(m, {ptr(by, "float")}, geometry1(1, 64));
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error,
            "barrier deadlock: 32 of 64 threads wait at __syncthreads, 32 exited without reaching "
            "it in block (0,0,0)");
  // The device stays usable after a failed launch.
  r = dev.launch(m, {ptr(by, "float")}, geometry1(1, 32));
  EXPECT_TRUE(r.ok) << r.error;
}

TEST_F(Errors, InvalidGeometry) {
  Buffer by = dev.alloc(4 * 1024);
  uint64_t m = compile_kernel(dev, "vector_add.hip", "vector_add");
  std::vector<KernelArg> a = {ptr(by, "float"), ptr(by, "float"), ptr(by, "float"), i64(0)};
  EXPECT_EQ(dev.launch(m, a, geometry1(1, 1025)).error,
            "invalid geometry: block (1025,1,1) has 1025 threads, the limit is 1024");
  EXPECT_EQ(dev.launch(m, a, geometry(Dim3{0, 1, 1}, Dim3{32, 1, 1})).error,
            "invalid geometry: grid (0,1,1) has a zero dimension");
  EXPECT_EQ(dev.launch(m, a, geometry(Dim3{1, 1, 1}, Dim3{32, 0, 1})).error,
            "invalid geometry: block (32,0,1) has a zero dimension");
  EXPECT_EQ(dev.launch(m, a, geometry(Dim3{1, 70000, 1}, Dim3{32, 1, 1})).error,
            "invalid geometry: grid (1,70000,1) exceeds the limit (2147483647,65535,65535)");
}

TEST_F(Errors, SharedMemoryOverTheLimit) {
  Buffer by = dev.alloc(4 * 256);
  uint64_t soft = compile_kernel(dev, "softmax_dynamic_shared.hip", "softmax");
  auto r = dev.launch(soft, {ptr(by, "float"), ptr(by, "float"), i32(1)}, geometry1(1, 64, 70000));
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error.rfind("shared memory over limit: ", 0), 0u) << r.error;
  EXPECT_NE(r.error.find("70000 dynamic), the limit is 65536"), std::string::npos) << r.error;
  uint64_t big = compile_kernel(dev, "big_static_shared.hip", "big_shared");
  r = dev.launch(big, {ptr(by, "float")}, geometry1(1, 64));
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("81920"), std::string::npos) << r.error;  // 20480 floats of static shared
  // A device with a larger limit runs it.
  DeviceOptions o = device_test_options();
  o.shared_mem_limit = 128 * 1024;
  cpu::CpuDevice roomy(o);
  Buffer b2 = roomy.alloc(4 * 64);
  uint64_t m2 = compile_kernel(roomy, "big_static_shared.hip", "big_shared");
  r = roomy.launch(m2, {ptr(b2, "float")}, geometry1(1, 64));
  EXPECT_TRUE(r.ok) << r.error;
  EXPECT_EQ(download<float>(roomy, b2, 64)[5], 6.0f);
}

TEST_F(Errors, DeviceAssertFailsTheLaunchWithItsLine) {
  std::vector<int> x = {1, 2, -3, 4};
  Buffer bx = upload(dev, x);
  uint64_t m = compile_kernel(dev, "assert_kernel.hip", "checked");
  auto r = dev.launch(m, {ptr(bx, "int"), i32(4)}, geometry1(1, 4));
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.error, "device assertion 'x[i] >= 0' failed at assert_kernel.hip:7 in block (0,0,0)");
}

TEST_F(Errors, CompileErrorPointsAtTheSourceLine) {
  CompileRequest req;
  req.source = kernel_path("compile_error.hip");
  req.entry = "broken";
  CompileResult c = dev.compile(req);
  ASSERT_FALSE(c.ok);
  EXPECT_EQ(c.error.rfind("compile error: compile_error.hip:6:12: error: ", 0), 0u) << c.error;
  EXPECT_NE(c.error.find("undeclared_value"), std::string::npos) << c.error;
  EXPECT_NE(c.log.find("compile_error.hip:6:12"), std::string::npos) << c.log;
}

TEST_F(Errors, SignatureMismatchesAreNamed) {
  CompileRequest req;
  req.source = kernel_path("vector_add.hip");
  req.entry = "vector_add";
  req.signature = {ptr({}, "float"), ptr({}, "float"), ptr({}, "float"), i32(0)};
  // i32 into a long: fine (widening).
  EXPECT_TRUE(dev.compile(req).ok);
  req.source = kernel_path("saxpy_grid_stride.hip");
  req.entry = "saxpy";
  req.signature = {f32(0), ptr({}, "float"), ptr({}, "float"), i64(0)};
  EXPECT_EQ(dev.compile(req).error,
            "signature mismatch: parameter 4 'n' is int, the task passes i64");
  req.source = kernel_path("double_math.hip");
  req.entry = "double_math";
  req.signature = {ptr({}, "float"), ptr({}, "float"), i32(0)};
  EXPECT_EQ(dev.compile(req).error,
            "signature mismatch: parameter 1 'x' is const double*, the task passes float*");
  req.signature = {ptr({}, "double"), i32(0), i32(0)};
  EXPECT_EQ(dev.compile(req).error,
            "signature mismatch: parameter 2 'y' is double*, the task passes a scalar i32");
  req.signature = {ptr({}, "double"), ptr({}, "double")};
  EXPECT_EQ(dev.compile(req).error,
            "signature mismatch: kernel 'double_math' takes 3 parameters, the task passes 2");
}

TEST_F(Errors, MissingEntryAndMissingSource) {
  CompileRequest req;
  req.source = kernel_path("vector_add.hip");
  req.entry = "no_such_kernel";
  EXPECT_EQ(dev.compile(req).error, "entry 'no_such_kernel' not found in vector_add.hip");
  req.source = kernel_path("no_such_file.hip");
  EXPECT_EQ(dev.compile(req).error.rfind("cannot read source '", 0), 0u);
  req.source = kernel_path("launcher_chevron.hip");
  req.entry = "plain";
  req.launcher = true;
  EXPECT_EQ(dev.compile(req).error,
            "entry 'plain' must be declared extern \"C\" int plain(const kta_call*)");
}

// The compiler and the device model's headers are where the options say (Settings fills them from
// $KTA_CXX and $KTA_CPU_RUNTIME_INCLUDE), not where the process's environment points.
TEST(BuildLocations, TheConfiguredCompilerAndHeadersAreTheOnesUsed) {
  CompileRequest req;
  req.source = kernel_path("vector_add.hip");
  req.entry = "vector_add";
  DeviceOptions o = device_test_options();
  o.compiler = "/nonexistent/kta-cxx";
  cpu::BuildResult b = cpu::build_module(req, o);
  EXPECT_FALSE(b.ok);
  EXPECT_NE((b.error + b.log).find("/nonexistent/kta-cxx"), std::string::npos) << b.error << "\n"
                                                                               << b.log;
  o = device_test_options();
  o.locations.cpu_runtime_include = "/nonexistent/kta-runtime-include";
  b = cpu::build_module(req, o);
  EXPECT_FALSE(b.ok);
  EXPECT_NE((b.error + b.log).find("hip/hip_runtime.h"), std::string::npos) << b.error << "\n"
                                                                            << b.log;
  EXPECT_EQ(cpu::runtime_include_dir(o), "/nonexistent/kta-runtime-include");
  o.locations.cpu_runtime_lib = "/nonexistent/libkta_cpu_runtime.so";
  EXPECT_EQ(cpu::runtime_library_path(o), "/nonexistent/libkta_cpu_runtime.so");
}

TEST_F(Errors, SanitizeNeedsTheIsolatedDevice) {
  if (cpu::CpuDevice::sanitizer_loaded())
    GTEST_SKIP() << "this test process runs under AddressSanitizer";
  CompileRequest req;
  req.source = kernel_path("oob_read.hip");
  req.entry = "oob_read";
  req.options.sanitize = true;
  EXPECT_EQ(
      dev.compile(req).error,
      "sanitize needs AddressSanitizer loaded in the device process (use the isolated device)");
}

TEST_F(Errors, BadArgumentsAreErrorsNotCrashes) {
  uint64_t m = compile_kernel(dev, "vector_add.hip", "vector_add");
  Buffer b = dev.alloc(16);
  EXPECT_EQ(dev.launch(m, {ptr(b, "float")}, geometry1(1, 1)).error,
            "kernel 'vector_add' takes 4 arguments, 1 given");
  EXPECT_EQ(dev.launch(m, {ptr(b, "float"), ptr(Buffer{999, 4}, "float"), ptr(b, "float"), i64(1)},
                       geometry1(1, 1))
                .error,
            "argument 2: unknown buffer 999");
  EXPECT_EQ(dev.launch(777, {}, geometry1(1, 1)).error, "unknown module 777");
  EXPECT_THROW(dev.upload(b, std::vector<char>(32).data(), 32), std::invalid_argument);
}

}  // namespace
}  // namespace kta::test
