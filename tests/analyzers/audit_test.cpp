// audit_files behaviour: parsing launcher TUs, partial ASTs, crash isolation, baselines.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>

#include "tests/analyzers/audit_test_util.h"

namespace kta::analyzers {
namespace {

using testing_util::audit_code;
using testing_util::count_check;
using testing_util::findings_of;
using testing_util::write_temp;

TEST(Audit, LauncherTranslationUnitParses) {
  FileAudit a = audit_code(R"(
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <vector>
#include <cmath>
#include <algorithm>
#define CHECK(e) do { hipError_t err_ = (e); if (err_ != hipSuccess) return 1; } while (0)
template <typename T, int BLOCK> __global__ void scale(T* x, T a, int n) {
  __shared__ T tile[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  tile[threadIdx.x] = i < n ? x[i] : T(0);
  __syncthreads();
  if (i < n) x[i] = std::max(tile[threadIdx.x] * a, T(0)) + expf(1.0f) + std::sqrt(2.0f);
}
__global__ void warp(float* x, int n) {
  float v = threadIdx.x < n ? x[threadIdx.x] : 0.0f;
  for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o);
  if (threadIdx.x < n) atomicAdd(&x[0], v);
}
extern "C" int kta_launch(const kta_call* call) {
  float* x = static_cast<float*>(call->tensors[0].data);
  int n = static_cast<int>(call->params[0].i);
  hipStream_t s = static_cast<hipStream_t>(call->stream);
  std::vector<float> host(n);
  float* tmp = nullptr;
  CHECK(hipMalloc(&tmp, n * sizeof(float)));
  CHECK(hipMemcpyAsync(tmp, x, n * sizeof(float), hipMemcpyDeviceToDevice, s));
  scale<float, 256><<<(n + 255) / 256, 256, 0, s>>>(x, 2.0f, n);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<float, 128>), dim3((n + 127) / 128), dim3(128), 0, s, tmp, 1.0f, n);
  hipLaunchKernelGGL(warp, dim3(1), dim3(64), 0, s, x, n);
  CHECK(hipFree(tmp));
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
)");
  EXPECT_TRUE(a.parse_errors.empty()) << testing_util::describe(a);
  EXPECT_TRUE(a.failure.empty());
  EXPECT_TRUE(a.findings.empty()) << testing_util::describe(a);
}

TEST(Audit, BrokenFileKeepsFindingsAndReportsParseErrors) {
  FileAudit a = audit_code(
      "__global__ void k(float* x, int n) { for (int i = 0; i < 4096; ++i) x[i] = 0; }\n"
      "__global__ void broken(float* x) { x[0] = undefined_name; }\n"
      "void also_broken( {\n");
  ASSERT_FALSE(a.parse_errors.empty());
  EXPECT_NE(a.parse_errors[0].find("error: use of undeclared identifier 'undefined_name'"),
            std::string::npos)
      << a.parse_errors[0];
  EXPECT_EQ(findings_of(a, "kta-shape-literal"),
            (std::vector<std::string>{
                "1:58: literal 4096 in a comparison equals the visible shape value N; unseen "
                "shapes will not match it (derive it from a size parameter)"}))
      << testing_util::describe(a);
  EXPECT_EQ(findings_of(a, "kta-ignored-size-param"),
            (std::vector<std::string>{"1:33: size parameter 'n' of kernel 'k' is never read: the "
                                      "kernel cannot adapt to the size it is given"}))
      << testing_util::describe(a);
}

// Clang's "N errors generated when compiling for host." (and anything else it prints) must not
// reach stderr: the errors are in parse_errors, in-process and in the forked children alike.
TEST(Audit, ParseErrorsDoNotLeakToStderr) {
  const std::string code =
      "__global__ void k(float* x, int n) { hipStream_t s; x[0] = not_declared; }\n";
  for (bool isolate : {false, true}) {
    AuditOptions options;
    options.shapes = testing_util::default_shapes();
    options.isolate = isolate;
    ::testing::internal::CaptureStderr();
    std::vector<FileAudit> audits = audit_files({testing_util::write_temp(code)}, options);
    std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(err, "") << (isolate ? "isolated" : "in-process");
    ASSERT_EQ(audits.size(), 1u);
    ASSERT_EQ(audits[0].parse_errors.size(), 1u) << testing_util::describe(audits[0]);
    EXPECT_NE(audits[0].parse_errors[0].find(":1:60: error: use of undeclared identifier "
                                             "'not_declared'"),
              std::string::npos)
        << audits[0].parse_errors[0];
  }
}

// The HIP runtime names launchers use beyond the basics parse (hipcc and the cpu device know
// them; the shim once did not, and the audit failed on correct code).
TEST(Audit, ShimKnowsStreamFlagsAndBitCasts) {
  FileAudit a = audit_code(
      "__global__ void k(float* x, int n) { if (threadIdx.x < n) x[threadIdx.x] = "
      "__int_as_float(__float_as_int(x[threadIdx.x])); }\n"
      "int launch(float* x, int n) {\n"
      "  hipStream_t s; hipEvent_t e;\n"
      "  if (hipStreamCreateWithFlags(&s, hipStreamNonBlocking) != hipSuccess) return 1;\n"
      "  hipEventCreateWithFlags(&e, hipEventDisableTiming);\n"
      "  k<<<(n + 255) / 256, 256, 0, s>>>(x, n);\n"
      "  hipStreamWaitEvent(s, e, 0);\n"
      "  return hipStreamDestroy(s) == hipErrorNotReady;\n"
      "}\n");
  EXPECT_TRUE(a.parse_errors.empty()) << testing_util::describe(a);
}

// HIP's C API has C linkage: a launcher that defines one of its functions (the own_timer attack,
// which the cpu device and hipcc compile) parses too, rather than failing the audit.
TEST(Audit, ARuntimeFunctionDefinedWithCLinkageParses) {
  FileAudit a = audit_code(
      "extern \"C\" hipError_t hipEventElapsedTime(float* ms, hipEvent_t, hipEvent_t) {\n"
      "  *ms = 0.001f;\n  return hipSuccess;\n}\n"
      "__global__ void k(float* y, int n) { if (threadIdx.x < n) y[threadIdx.x] = 0; }\n");
  EXPECT_TRUE(a.parse_errors.empty()) << testing_util::describe(a);
}

TEST(Audit, MissingIncludeStillAudits) {
  FileAudit a = audit_code(
      "#include \"does_not_exist.h\"\n__global__ void k(float* y, int n) { y[threadIdx.x] = 0; "
      "}\n");
  ASSERT_FALSE(a.parse_errors.empty());
  EXPECT_NE(a.parse_errors[0].find("fatal error: 'does_not_exist.h' file not found"),
            std::string::npos);
}

TEST(Audit, MissingFileIsAFailureNotACrash) {
  AuditOptions options;
  options.isolate = false;
  auto audits = audit_files({testing_util::temp_dir() / "nope.hip"}, options);
  ASSERT_EQ(audits.size(), 1u);
  EXPECT_EQ(audits[0].failure, "no such file");
}

TEST(Audit, CrashInOneFileLosesNoOtherResults) {
  auto good1 =
      write_temp("__global__ void k(float* y, int n) { y[threadIdx.x] = 0; }\n", "good1.hip");
  auto bad =
      write_temp("__global__ void k(float* y, int n) { y[threadIdx.x] = 0; }\n", "crash_me.hip");
  auto good2 = write_temp(
      "__global__ void k(float* y, int n) { if (threadIdx.x < n) y[threadIdx.x] = 0; }\n",
      "good2.hip");
  AuditOptions options;
  options.all = true;
  options.jobs = 2;
  options.before_file = [](const std::filesystem::path& file) {
    if (file.filename() == "crash_me.hip") ::raise(SIGSEGV);
  };
  auto audits = audit_files({good1, bad, good2}, options);
  ASSERT_EQ(audits.size(), 3u);
  EXPECT_EQ(audits[0].file, good1);
  EXPECT_EQ(findings_of(audits[0], "kta-unguarded-index"),
            (std::vector<std::string>{
                "1:38: 'y' is indexed by the thread index with no bounds check against a size "
                "parameter; threads past the end of an unseen shape access out of bounds (guard "
                "with `if (i < n)` or a grid-stride loop)"}));
  EXPECT_EQ(audits[1].file, bad);
  EXPECT_NE(audits[1].failure.find("the analyzer crashed on this file (signal 11"),
            std::string::npos)
      << audits[1].failure;
  EXPECT_TRUE(audits[2].failure.empty());
  EXPECT_TRUE(audits[2].findings.empty()) << format_text({audits[2]});
  EXPECT_TRUE(reaches(audits, "error"));
}

TEST(Audit, IsolatedAndInProcessAgree) {
  auto f = write_temp(
      "__global__ void k(float* y, int n) { for (int i = 0; i < 4096; ++i) y[i] = 0; }\n");
  AuditOptions options;
  options.shapes = testing_util::default_shapes();
  options.all = true;
  auto isolated = audit_files({f}, options);
  options.isolate = false;
  auto in_process = audit_files({f}, options);
  EXPECT_EQ(format_json(isolated), format_json(in_process));
}

constexpr const char* kBaseline =
    "__global__ void k(float* y, int n) {\n"
    "  for (int i = 0; i < 4096; ++i) y[i] = 0;\n"
    "}\n";

TEST(Audit, BaselineFindingsAreNotReported) {
  auto base = write_temp(kBaseline, "baseline.hip");
  // The same overfit line moved down, plus a new one.
  auto cand = write_temp(std::string("// candidate\n") + kBaseline +
                             "__global__ void k2(float* y, int n) {\n  for (int i = 0; i < "
                             "1048576; ++i) y[i] = n;\n}\n",
                         "candidate.hip");
  AuditOptions options;
  options.shapes = testing_util::default_shapes();
  options.baseline = base;
  options.isolate = false;
  auto relative = audit_files({cand}, options);
  ASSERT_EQ(count_check(relative[0], "kta-shape-literal"), 1) << format_text(relative);
  EXPECT_EQ(relative[0].findings[0].line, 6u);
  EXPECT_EQ(findings_of(relative[0], "kta-shape-literal"),
            (std::vector<std::string>{
                "6:23: literal 1048576 in a comparison equals the visible shape value N; unseen "
                "shapes will not match it (derive it from a size parameter)"}));
  EXPECT_EQ(count_check(relative[0], "kta-ignored-size-param"), 0) << format_text(relative);

  options.all = true;
  auto all = audit_files({cand}, options);
  EXPECT_EQ(count_check(all[0], "kta-shape-literal"), 2) << format_text(all);
  EXPECT_EQ(count_check(all[0], "kta-ignored-size-param"), 1) << format_text(all);
  EXPECT_EQ(findings_of(all[0], "kta-shape-literal"),
            (std::vector<std::string>{
                "3:23: literal 4096 in a comparison equals the visible shape value N; unseen "
                "shapes will not match it (derive it from a size parameter)",
                "6:23: literal 1048576 in a comparison equals the visible shape value N; unseen "
                "shapes will not match it (derive it from a size parameter)"}));
  EXPECT_EQ(findings_of(all[0], "kta-ignored-size-param"),
            (std::vector<std::string>{"2:33: size parameter 'n' of kernel 'k' is never read: the "
                                      "kernel cannot adapt to the size it is given"}));
}

TEST(Audit, MissingBaselineIsAnError) {
  AuditOptions options;
  options.baseline = testing_util::temp_dir() / "no_baseline.hip";
  EXPECT_THROW(audit_files({write_temp("int x;\n")}, options), std::invalid_argument);
}

TEST(Audit, SuppressionWithReasonSilences) {
  FileAudit a = audit_code(
      "__global__ void k(float* y, int n) {\n"
      "  // kta-audit: allow(kta-shape-literal): 4096-entry lookup table\n"
      "  for (int i = 0; i < 4096; ++i) y[i] = n;\n"
      "  for (int i = 0; i < 1048576; ++i) y[i] = n;  // kta-audit: allow(kta-shape-literal)\n"
      "}\n");
  ASSERT_EQ(count_check(a, "kta-shape-literal"), 0) << testing_util::describe(a);
  ASSERT_EQ(count_check(a, "kta-audit-suppression"), 1) << testing_util::describe(a);
  EXPECT_EQ(findings_of(a, "kta-audit-suppression"),
            (std::vector<std::string>{
                "4:51: suppression without a reason; write 'allow(check): why this is general'"}));
}

}  // namespace
}  // namespace kta::analyzers
