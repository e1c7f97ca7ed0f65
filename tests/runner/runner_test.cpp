// The python runner's protocol against fake modules (fixtures/fake.py and friends): results,
// named failures (exceptions with their traceback, wrong output shape, dtype and count, import
// errors, missing symbols, version mismatch, garbage on the socket), hangs and exits mid-request
// (the runner is restarted and the next request works), and printed text captured apart from
// the protocol. One runner serves every test of a suite, as one serves a whole `kta eval`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "engine/device/python/find_python.h"
#include "engine/device/python/python_device.h"
#include "tests/support/time_scale.h"

namespace kta::engine {
namespace {

namespace fs = std::filesystem;

const fs::path kFixtures = KTA_RUNNER_FIXTURES;

// Generous limits (a loaded machine runs Python slowly); the hang tests use a short one.
DeviceOptions test_options() {
  DeviceOptions o;
  o.launch_timeout_s = test::scaled_seconds(60);
  o.compile_timeout_s = test::scaled_seconds(120);
  return o;
}

DeviceOptions hang_options() {
  DeviceOptions o = test_options();
  o.launch_timeout_s = 2;
  return o;
}

// The runner as `kta` starts it here: the interpreter found as this environment says.
RunnerOptions test_runner() { return runner_options(settings_from(process_environment())); }

// A device on its own runner (a test that kills its runner does not disturb the others).
std::unique_ptr<PythonDevice> make_device(RunnerOptions ro = test_runner(),
                                          DeviceOptions o = test_options()) {
  return std::make_unique<PythonDevice>(std::make_shared<RunnerProcess>(ro), o);
}

CompileRequest entry(const std::string& symbol, const std::string& file = "fake.py",
                     const std::string& mode = "function", const std::string& flavor = "torch") {
  CompileRequest r;
  r.source = kFixtures / file;
  r.entry = symbol;
  r.flavor = flavor;
  r.mode = mode;
  return r;
}

// x: f32[n] in, y: f32[m] out, buffers on `d`.
struct Tensors {
  Tensors(Device& d, size_t n, size_t m) : dev(d) {
    x = d.alloc(n * 4);
    y = d.alloc(m * 4);
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = float(i) - 1.5f;
    d.upload(x, v.data(), n * 4);
    d.fill(y, 0xff);
    args.tensors = {{"x", x, KTA_F32, {int64_t(n)}, 0}, {"y", y, KTA_F32, {int64_t(m)}, 1}};
    in = v;
  }
  std::vector<float> out() {
    std::vector<float> v(y.bytes / 4);
    dev.download(v.data(), y, y.bytes);
    return v;
  }
  Device& dev;
  Buffer x, y;
  LauncherArgs args;
  std::vector<float> in;
};

class Runner : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    PythonChoice c = find_python(test_runner().search);
    ASSERT_FALSE(c.path.empty()) << c.error;
    shared_ = std::make_shared<RunnerProcess>(test_runner());
  }
  static void TearDownTestSuite() { shared_.reset(); }
  std::unique_ptr<PythonDevice> device() {
    return std::make_unique<PythonDevice>(shared_, test_options());
  }
  static inline std::shared_ptr<RunnerProcess> shared_;
};

uint64_t compiled(Device& d, const CompileRequest& r) {
  CompileResult c = d.compile(r);
  EXPECT_TRUE(c.ok) << c.error << "\n" << c.log;
  return c.module;
}

TEST_F(Runner, FunctionCopiesItsResultIntoTheOutput) {
  auto d = device();
  Tensors t(*d, 16, 16);
  uint64_t m = compiled(*d, entry("identity"));
  LaunchResult r = d->call(m, t.args);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(t.out(), t.in);
}

// Device::copy: the two halves of a rotation land where they should (on the cpu device the
// engine copies in the shared memory itself), a call sees them, and a copy past a buffer's end
// is refused by name.
TEST_F(Runner, CopiesWithinTheDeviceAreWhatACallSees) {
  auto d = device();
  Tensors t(*d, 16, 16);
  Buffer rotated = d->alloc(16 * 4);
  const BufferCopy halves[] = {{rotated, 0, t.x, 5 * 4, 11 * 4}, {rotated, 11 * 4, t.x, 0, 5 * 4}};
  d->copy(halves);
  LauncherArgs args = t.args;
  args.tensors[0].buffer = rotated;
  uint64_t m = compiled(*d, entry("identity"));
  ASSERT_TRUE(d->call(m, args).ok);
  std::vector<float> want(16);
  for (size_t i = 0; i < 16; ++i) want[i] = t.in[(i + 5) % 16];
  EXPECT_EQ(t.out(), want);
  const BufferCopy past{rotated, 8 * 4, t.x, 0, 9 * 4};
  EXPECT_THROW(d->copy(std::span(&past, 1)), std::invalid_argument);
}

TEST_F(Runner, ModuleIsBuiltWithItsInitArgs) {
  auto d = device();
  Tensors t(*d, 8, 8);
  uint64_t m = compiled(*d, entry("Scale", "fake.py", "module"));
  t.args.init_args = {{"factor", false, 3, 0}};
  ASSERT_TRUE(d->call(m, t.args).ok);
  std::vector<float> want = t.in;
  for (float& v : want) v *= 3;
  EXPECT_EQ(t.out(), want);
  t.args.init_args = {{"factor", true, 0, 0.5}};  // another point, another instance
  ASSERT_TRUE(d->call(m, t.args).ok);
  EXPECT_FLOAT_EQ(t.out()[0], t.in[0] * 0.5f);
}

TEST_F(Runner, ExceptionIsANamedFailureWithTheTraceback) {
  auto d = device();
  Tensors t(*d, 4, 4);
  LaunchResult r = d->call(compiled(*d, entry("raises")), t.args);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("python exception: ValueError: boom from the fake module"),
            std::string::npos)
      << r.error;
  EXPECT_NE(r.error.find("Traceback"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("fake.py"), std::string::npos) << r.error;
  EXPECT_FALSE(r.device_restarted);
}

TEST_F(Runner, WrongOutputShapeDtypeAndCountAreNamed) {
  auto d = device();
  Tensors t(*d, 4, 4);
  LaunchResult shape = d->call(compiled(*d, entry("wrong_shape")), t.args);
  EXPECT_NE(shape.error.find("output 'y' has shape [5], expected [4]"), std::string::npos)
      << shape.error;
  LaunchResult dtype = d->call(compiled(*d, entry("wrong_dtype")), t.args);
  EXPECT_NE(dtype.error.find("output 'y' has dtype float64, the task declares f32"),
            std::string::npos)
      << dtype.error;
  LaunchResult count = d->call(compiled(*d, entry("wrong_count")), t.args);
  EXPECT_NE(count.error.find("returned 2 tensors, the task declares 1 output"), std::string::npos)
      << count.error;
  EXPECT_FALSE(shape.ok || dtype.ok || count.ok);
}

TEST_F(Runner, PrintedTextIsCapturedAndTheProtocolIsUnaffected) {
  auto d = device();
  Tensors t(*d, 4, 4);
  CompileResult c = d->compile(entry("prints"));
  ASSERT_TRUE(c.ok) << c.error;
  LaunchResult r = d->call(c.module, t.args);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.output, "hello from the module\n");
  EXPECT_FLOAT_EQ(t.out()[3], t.in[3] * 2);
}

TEST_F(Runner, ImportErrorsAndMissingSymbolsAreNamed) {
  auto d = device();
  CompileResult syntax = d->compile(entry("broken", "syntax_error.py"));
  EXPECT_FALSE(syntax.ok);
  EXPECT_NE(syntax.error.find("import error: "), std::string::npos) << syntax.error;
  EXPECT_NE(syntax.error.find("SyntaxError"), std::string::npos) << syntax.error;
  CompileResult missing = d->compile(entry("f", "missing_import.py"));
  EXPECT_NE(missing.error.find("No module named 'kta_no_such_module'"), std::string::npos)
      << missing.error;
  CompileResult symbol = d->compile(entry("nope"));
  EXPECT_NE(symbol.error.find("missing symbol: 'nope' is not defined in fake.py"),
            std::string::npos)
      << symbol.error;
  CompileResult file = d->compile(entry("f", "no_such_file.py"));
  EXPECT_NE(file.error.find("import error"), std::string::npos) << file.error;
  EXPECT_FALSE(syntax.ok || missing.ok || symbol.ok || file.ok);
}

TEST_F(Runner, TritonOnTheCpuDeviceIsUnavailableNotFailed) {
  auto d = device();
  CompileResult c = d->compile(entry("identity", "fake.py", "function", "triton"));
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(c.unavailable);
  EXPECT_EQ(c.error, "triton not available: the cpu device has no GPU");
}

TEST_F(Runner, TimedCallReturnsASample) {
  auto d = device();
  Tensors t(*d, 1024, 1024);
  uint64_t m = compiled(*d, entry("identity"));
  TimedResult cold = d->timed_call(m, t.args, true, 1);
  TimedResult batch = d->timed_call(m, t.args, false, 5);
  ASSERT_TRUE(cold.status.ok && batch.status.ok) << cold.status.error << batch.status.error;
  EXPECT_GT(cold.seconds, 0);
  EXPECT_LT(cold.seconds, 1);
  EXPECT_GT(batch.seconds, 0);
  EXPECT_EQ(t.out(), t.in);
}

TEST_F(Runner, InoutIsUpdatedOnceByACallAndOnceByATimedSample) {
  auto d = device();
  Tensors t(*d, 8, 8);
  t.args.tensors[1].role = 2;  // y: inout
  std::vector<float> ones(8, 1.0f);
  d->upload(t.y, ones.data(), 32);
  uint64_t m = compiled(*d, entry("accumulate"));
  ASSERT_TRUE(d->call(m, t.args).ok);
  EXPECT_FLOAT_EQ(t.out()[5], 1.0f + t.in[5]);
  d->upload(t.y, ones.data(), 32);
  TimedResult r = d->timed_call(m, t.args, true, 1);
  ASSERT_TRUE(r.status.ok) << r.status.error;
  EXPECT_FLOAT_EQ(t.out()[5], 1.0f + t.in[5]);  // no untimed warm-up call on an inout
}

TEST(RunnerRestart, HangTimesOutAndTheNextRequestWorks) {
  auto d = make_device(test_runner(), hang_options());
  Tensors t(*d, 4, 4);
  uint64_t hang = compiled(*d, entry("hangs"));
  uint64_t ok = compiled(*d, entry("identity"));
  LaunchResult r = d->call(hang, t.args);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("timeout after 2 s"), std::string::npos) << r.error;
  EXPECT_TRUE(r.device_restarted);
  LaunchResult again =
      d->call(ok, t.args);  // a fresh runner, the module reloaded, buffers remapped
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_EQ(t.out(), t.in);
  EXPECT_EQ(d->runner().stats().starts, 2);
}

TEST(RunnerRestart, ExitMidRequestIsNamedAndTheNextRequestWorks) {
  auto d = make_device();
  Tensors t(*d, 4, 4);
  uint64_t dies = compiled(*d, entry("exits"));
  uint64_t ok = compiled(*d, entry("identity"));
  LaunchResult r = d->call(dies, t.args);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("python runner exited with status 7 during the request"),
            std::string::npos)
      << r.error;
  EXPECT_TRUE(r.device_restarted);
  LaunchResult again = d->call(ok, t.args);
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_EQ(t.out(), t.in);
}

TEST(RunnerProtocol, VersionMismatchIsNamed) {
  RunnerOptions newer = test_runner();
  newer.protocol_version = 2;
  CompileResult a = make_device(newer)->compile(entry("identity"));
  EXPECT_NE(a.error.find("protocol version mismatch: engine 2, runner 1"), std::string::npos)
      << a.error;
  RunnerOptions fake = test_runner();
  fake.script = kFixtures / "bad_version.py";
  CompileResult b = make_device(fake)->compile(entry("identity"));
  EXPECT_NE(b.error.find("protocol version mismatch: engine 1, runner 99"), std::string::npos)
      << b.error;
  EXPECT_FALSE(a.ok || b.ok);
}

TEST(RunnerProtocol, GarbageOnTheSocketIsAProtocolError) {
  RunnerOptions fake = test_runner();
  fake.script = kFixtures / "garbage.py";
  CompileResult c = make_device(fake)->compile(entry("identity"));
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.error.find("protocol error"), std::string::npos) << c.error;
}

TEST(RunnerProtocol, MissingInterpreterNamesWhatWasTried) {
  PythonChoice c = find_python(test_runner().search, {"kta_no_such_module"});
  EXPECT_TRUE(c.path.empty());
  EXPECT_NE(c.error.find("no Python interpreter can import kta_no_such_module"), std::string::npos)
      << c.error;
  EXPECT_NE(c.error.find("/usr/bin/python3 (no module named kta_no_such_module)"),
            std::string::npos)
      << c.error;
  EXPECT_NE(c.error.find("KTA_PYTHON"), std::string::npos) << c.error;
}

// The one mapping from the environment's settings to the runner's options.
TEST(RunnerSettings, EveryVariableReachesItsOption) {
  RunnerOptions o = runner_options(settings_from({{"KTA_PYTHON", "/opt/py/bin/python3"},
                                                  {"PATH", "/a:/b"},
                                                  {"KTA_RUNNER", "/r/kta_runner.py"},
                                                  {"PYTHONPATH", "/p"},
                                                  {"KTA_CACHE_DIR", "/c"}}));
  EXPECT_EQ(o.search.preferred, "/opt/py/bin/python3");
  EXPECT_EQ(o.search.path, "/a:/b");
  EXPECT_EQ(o.script, "/r/kta_runner.py");
  EXPECT_EQ(o.environment.at("PYTHONPATH"), "/p");
  EXPECT_TRUE(o.python.empty());  // found by the search, not forced
  EXPECT_EQ(o.cache_root, "/c/python");
  EXPECT_TRUE(o.compile_cache.empty());  // each role's, given by the RunnerPool
}

// The interpreter is looked for where the search says, not in this process's environment: a
// preferred interpreter that is missing is named, then python3 in the given folders is tried.
TEST(RunnerProtocol, TheSearchItIsGivenIsTheOneMade) {
  fs::path dir = fs::temp_directory_path() / ("kta-python-search-" + std::to_string(getpid()));
  fs::create_directories(dir / "bin");
  {
    std::ofstream py(dir / "bin" / "python3");
    py << "#!/bin/sh\necho ok\n";
  }
  fs::permissions(dir / "bin" / "python3", fs::perms::owner_all);
  PythonChoice c = find_python({"/nonexistent/kta-python3", (dir / "bin").string()}, {"json"});
  EXPECT_EQ(c.path, (dir / "bin" / "python3").string()) << c.error;
  ASSERT_FALSE(c.tried.empty());
  EXPECT_EQ(c.tried.front().rfind("KTA_PYTHON=/nonexistent/kta-python3 (", 0), 0u)
      << c.tried.front();
  fs::remove_all(dir);
}

TEST(RunnerProtocol, StartFailureIsNamed) {
  RunnerOptions bad = test_runner();
  bad.python = "/nonexistent/python3";
  CompileResult c = make_device(bad)->compile(entry("identity"));
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.error.find("cannot start the python runner '/nonexistent/python3'"),
            std::string::npos)
      << c.error;
}

}  // namespace
}  // namespace kta::engine
