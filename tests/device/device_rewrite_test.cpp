// The HIP source rewriter (chevron launches, dynamic shared memory, synchronization detection)
// and the kernel signature checks, without compiling anything.
#include <gtest/gtest.h>

#include "engine/device/cpu/hip_rewrite.h"
#include "engine/device/cpu/kernel_signature.h"
#include "support/device_test_support.h"

namespace kta::test {
namespace {

using engine::cpu::rewrite_hip_source;

size_t lines(const std::string& s) { return size_t(std::count(s.begin(), s.end(), '\n')); }

TEST(Rewrite, ChevronBecomesARuntimeCall) {
  auto r = rewrite_hip_source("void f() { k<<<g, b>>>(x, n); }\n");
  EXPECT_TRUE(r.errors.empty());
  EXPECT_EQ(r.text,
            "void f() { ::kta_rt::launch_chevron(\"k\", [&](auto&&... kta_a) { k(kta_a...); }, "
            "::kta_rt::LaunchCfg(g, b), x, n); }\n");
}

TEST(Rewrite, TemplatesQualifiedNamesAndFourConfigArguments) {
  auto r = rewrite_hip_source("ns::k<T, 4><<<dim3(a >> 1, 2), b, sh, st>>>();");
  EXPECT_EQ(
      r.text,
      "::kta_rt::launch_chevron(\"ns::k<T, 4>\", [&](auto&&... kta_a) { ns::k<T, 4>(kta_a...); }, "
      "::kta_rt::LaunchCfg(dim3(a >> 1, 2), b, sh, st));");
  r = rewrite_hip_source("k<A<int>><<<1, 2>>>(p);");
  EXPECT_EQ(
      r.text,
      "::kta_rt::launch_chevron(\"k<A<int>>\", [&](auto&&... kta_a) { k<A<int>>(kta_a...); }, "
      "::kta_rt::LaunchCfg(1, 2), p);");
  r = rewrite_hip_source("(k<float>)<<<1, 2>>>(p);");
  EXPECT_EQ(
      r.text,
      "::kta_rt::launch_chevron(\"(k<float>)\", [&](auto&&... kta_a) { (k<float>)(kta_a...); }, "
      "::kta_rt::LaunchCfg(1, 2), p);");
}

TEST(Rewrite, StringsCommentsAndCharactersAreLeftAlone) {
  std::string src =
      "const char* s = \"k<<<1,1>>>()\"; // k<<<1,1>>>()\n"
      "/* k<<<1,1>>>() */ char c = '<'; auto r = R\"x(k<<<1,1>>>())x\";\n"
      "int v = a << 2; bool b = x<<<y;\n";
  auto r = rewrite_hip_source(src);
  ASSERT_EQ(r.errors.size(), 1u);  // `x<<<y;` is no launch
  EXPECT_EQ(
      r.errors[0],
      "3: malformed kernel launch: expected 'kernel<<<grid, block[, shared[, stream]]>>>(args)'");
  EXPECT_EQ(r.text, src);
}

TEST(Rewrite, MultiLineLaunchKeepsLineNumbers) {
  std::string src = "void f() {\n  k<<<g,\n     b>>>(x,\n          y);\n  int after;\n}\n";
  auto r = rewrite_hip_source(src);
  EXPECT_EQ(lines(r.text), lines(src));
  EXPECT_EQ(r.text.substr(r.text.find("int after")), "int after;\n}\n");
  EXPECT_EQ(std::count(r.text.begin(), r.text.begin() + r.text.find("int after"), '\n'), 4);
}

TEST(Rewrite, DynamicSharedMemoryDeclarations) {
  auto r = rewrite_hip_source(
      "__global__ void k() {\n  extern __shared__ __align__(16) float s[];\n}\n");
  EXPECT_EQ(r.text,
            "__global__ void k() {\n  float * const s = static_cast<float "
            "*>(::kta_rt::tls.dynamic_shared);\n}\n");
  r = rewrite_hip_source("namespace a {\nextern __shared__ unsigned int s[];\n}\n");
  EXPECT_EQ(r.text, "namespace a {\nstatic ::kta_rt::DynamicShared<unsigned int > s;\n}\n");
  r = rewrite_hip_source("extern __shared__ float s;");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(
      r.errors[0],
      "1: unsupported dynamic shared memory declaration: expected 'extern __shared__ T name[];'");
  // An unbalanced attribute is an unsupported form, reported; it once sent the scan around
  // forever.
  r = rewrite_hip_source("__global__ void k() {\n  extern __shared__ __align__(16 float s[];\n}\n");
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("unsupported dynamic shared memory declaration"), std::string::npos)
      << r.errors[0];
}

TEST(Rewrite, SynchronizationIsDetected) {
  EXPECT_TRUE(rewrite_hip_source("void f() { __syncthreads(); }").synchronizes);
  EXPECT_TRUE(rewrite_hip_source("void f() { v = __shfl_xor_sync(m, v, 1); }").synchronizes);
  EXPECT_TRUE(rewrite_hip_source("void f() { b = __ballot(p); }").synchronizes);
  EXPECT_FALSE(rewrite_hip_source("void f() { y = x; } // __syncthreads()").synchronizes);
  EXPECT_FALSE(rewrite_hip_source("const char* s = \"__syncthreads\";").synchronizes);
}

// Quoted includes point where the callback says (the staged copies); an empty answer keeps one.
TEST(Rewrite, QuotedIncludesAreRedirected) {
  auto r = rewrite_hip_source(
      "#include \"parts/a.hip\"\n#include \"keep.h\"\n#include <hip/hip_runtime.h>\n"
      "// #include \"comment.h\"\n",
      [](std::string_view target) {
        return target == "keep.h" ? std::string() : "kta-include-0-" + std::string(target);
      });
  EXPECT_EQ(r.text,
            "#include \"kta-include-0-parts/a.hip\"\n#include \"keep.h\"\n"
            "#include <hip/hip_runtime.h>\n// #include \"comment.h\"\n");
  EXPECT_EQ(r.quoted_includes, (std::vector<std::string>{"parts/a.hip", "keep.h"}));
}

TEST(Rewrite, IncludesAndParameterNames) {
  auto r = rewrite_hip_source("#include \"common.h\"\n#include <hip/hip_runtime.h>\n");
  EXPECT_EQ(r.quoted_includes, std::vector<std::string>{"common.h"});
  EXPECT_EQ(engine::cpu::kernel_parameter_names("__global__ void __launch_bounds__(256) k(const "
                                                "float* __restrict__ x, float *y, long n = 4) {}",
                                                "k"),
            (std::vector<std::string>{"x", "y", "n"}));
  EXPECT_TRUE(engine::cpu::kernel_parameter_names("__global__ void other(int a);", "k").empty());
}

TEST(Signature, ParseAndCheck) {
  using namespace engine::cpu;
  auto p = parse_signature("*const f32,*f16,i32,u64,");
  ASSERT_EQ(p.size(), 4u);
  EXPECT_TRUE(p[0].pointer && p[0].is_const && p[0].code == "f32");
  EXPECT_EQ(c_spelling(p[1]), "__half*");
  EXPECT_EQ(check_signature(p, {ptr({}, "float"), ptr({}, "__half"), i32(0), i64(0)},
                            {"a", "b", "c", "d"}, "k"),
            "");
  EXPECT_EQ(check_signature(p, {ptr({}, "float"), ptr({}, "float"), i32(0), i64(0)},
                            {"a", "b", "c", "d"}, "k"),
            "signature mismatch: parameter 2 'b' is __half*, the task passes float*");
  EXPECT_EQ(check_signature(p, {ptr({}, "float"), ptr({}, "__half"), f32(0), i64(0)}, {}, "k"),
            "signature mismatch: parameter 3 is int, the task passes f32");
  auto v = parse_signature("*f32x4,f32");
  EXPECT_EQ(check_signature(v, {ptr({}, "float"), f32(0)}, {}, "k"),
            "");  // float4* over an f32 tensor
  EXPECT_EQ(check_signature(v, {ptr({}, "float"), i32(0)}, {}, "k"),
            "signature mismatch: parameter 2 is float, the task passes i32");
}

TEST(Signature, ScalarsAreConvertedToTheKernelsType) {
  using namespace engine::cpu;
  uint64_t slot;
  convert_scalar(f32(2.5), ParamType{false, false, "f64"}, &slot);
  double d;
  std::memcpy(&d, &slot, 8);
  EXPECT_EQ(d, 2.5);
  convert_scalar(f32(2.5), ParamType{false, false, "f32"}, &slot);
  float f;
  std::memcpy(&f, &slot, 4);
  EXPECT_EQ(f, 2.5f);
  convert_scalar(i32(-7), ParamType{false, false, "i64"}, &slot);
  EXPECT_EQ(int64_t(slot), -7);
  convert_scalar(i64(300), ParamType{false, false, "u8"}, &slot);
  EXPECT_EQ(slot, 44u);
}

}  // namespace
}  // namespace kta::test
