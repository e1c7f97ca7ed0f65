// Per-check tests: code each check must warn on, with every finding of that check it must
// report (line:column: message), and code it must leave alone.
// Shapes: N = 4096 | 1048576, M = 128 | 512, K = 64.
#include <gtest/gtest.h>

#include "tests/analyzers/audit_test_util.h"

namespace kta::analyzers {
namespace {

using testing_util::audit_code;
using testing_util::findings_of;

struct Case {
  const char* name;
  std::string code;
  // Every finding of the check under test, in report order, as "line:column: message".
  std::vector<std::string> findings = {};
};

void expect_warns(const std::string& check, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    FileAudit a = audit_code(c.code);
    EXPECT_TRUE(a.parse_errors.empty()) << c.name << ": " << testing_util::describe(a);
    EXPECT_FALSE(c.findings.empty()) << c.name << ": a must-warn case states what it expects";
    std::vector<std::string> got = findings_of(a, check);
    EXPECT_EQ(got, c.findings) << check << " must warn on " << c.name << "\n"
                               << testing_util::describe(a);
  }
}

void expect_silent(const std::string& check, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    FileAudit a = audit_code(c.code);
    EXPECT_TRUE(a.parse_errors.empty()) << c.name << ": " << testing_util::describe(a);
    EXPECT_EQ(findings_of(a, check), std::vector<std::string>{})
        << check << " must not warn on " << c.name << "\n"
        << testing_util::describe(a);
  }
}

TEST(ShapeLiteral, MustWarn) {
  expect_warns(
      "kta-shape-literal",
      {
          {"loop bound",
           "__global__ void k(float* x, int n) { for (int i = 0; i < 4096; ++i) x[i] = n; }",
           {"1:58: literal 4096 in a comparison equals the visible shape value N; unseen shapes "
            "will not match it (derive it from a size parameter)"}},
          {"index stride",
           "__global__ void k(float* x, int n) { int r = n; x[r * 4096] = 0; }",
           {"1:55: literal 4096 in index arithmetic equals the visible shape value N; unseen "
            "shapes will not match it (derive it from a size parameter)"}},
          {"array bound",
           "__global__ void k(float* x, int n) { __shared__ float b[4096]; if (n) b[0] = x[0]; }",
           {"1:57: literal 4096 as an array bound equals the visible shape value N; unseen shapes "
            "will not match it (derive it from a size parameter)"}},
          {"size-named constant",
           "constexpr int kRows = 512; __global__ void k(float* x, int n) { if (n) x[0] = kRows; "
           "}",
           {"1:23: constant 'kRows' = 512 hard-codes the visible shape value M; unseen shapes will "
            "not match it (pass the size as a parameter)"}},
          {"axis-named small constant",
           "const int K = 64; __global__ void k(float* x, int n) { if (n) x[0] = K; }",
           {"1:15: constant 'K' = 64 hard-codes the visible shape value K; unseen shapes will not "
            "match it (pass the size as a parameter)"}},
          {"macro",
           "#define SIZE 1048576\n__global__ void k(float* x, int n) { if (n < SIZE) x[0] = 0; }",
           {"1:14: macro 'SIZE' = 1048576 hard-codes the visible shape value N; unseen shapes will "
            "not match it (pass the size as a parameter)"}},
          {"product",
           "__global__ void k(float* x, int n) { for (int i = 0; i < 524288; ++i) x[i] = n; }",
           {"1:58: literal 524288 in a comparison equals M*N of the visible shapes; unseen shapes "
            "will not match it (derive it from a size parameter)"}},
          {"quotient",
           "__global__ void k(float* x, int n) { for (int i = 0; i < 8192; ++i) x[i] = n; }",
           {"1:58: literal 8192 in a comparison equals K*M of the visible shapes; unseen shapes "
            "will not match it (derive it from a size parameter)"}},
          {"kernel argument",
           "__global__ void k(float* x, int n) { if (threadIdx.x < n) x[threadIdx.x] = 0; }\n"
           "void go(float* x) { k<<<(1048576 + 255) / 256, 256>>>(x, 1048576); }",
           {"2:26: literal 1048576 in index arithmetic equals the visible shape value N; unseen "
            "shapes will not match it (derive it from a size parameter)",
            "2:58: literal 1048576 as a kernel argument equals the visible shape value N; unseen "
            "shapes will not match it (derive it from a size parameter)"}},
          {"local variable",
           "__global__ void go(float* x, int n); void h(float* x) { int n = 4096; go<<<1, "
           "1>>>(x, n); }",
           {"1:65: variable 'n' = 4096 hard-codes the visible shape value N; unseen shapes will "
            "not match it (pass the size as a parameter)"}},
      });
}

TEST(ShapeLiteral, MustNotWarn) {
  expect_silent(
      "kta-shape-literal",
      {
          {"tile constant equal to K",
           "#define TILE 64\n__global__ void k(float* x, int n) { __shared__ float t[TILE]; "
           "for (int i = 0; i < TILE; ++i) t[i] = i < n ? x[i] : 0; }"},
          {"block constant equal to M",
           "constexpr int kBlock = 128; __global__ void k(float* x, int n) { "
           "int i = blockIdx.x * kBlock + threadIdx.x; if (i < n) x[i] = 0; }"},
          {"block size next to blockIdx",
           "__global__ void k(float* x, int n) { int i = blockIdx.x * 128 + threadIdx.x; if (i < "
           "n) x[i] = 0; }"},
          {"small shared buffer",
           "__global__ void k(float* x, int n) { __shared__ float s[512]; s[threadIdx.x] = 0; if "
           "(n) x[0] = s[0]; }"},
          {"comments and strings",
           "// N = 4096\n__global__ void k(float* x, int n) { /* 4096 */ if (threadIdx.x < n) "
           "x[threadIdx.x] = 0; }\n"
           "const char* s = \"4096\";"},
          {"value not a shape",
           "__global__ void k(float* x, int n) { for (int i = 0; i < 4097; ++i) x[i] = n; }"},
          {"comparison with size is a branch",
           "__global__ void k(float* x, int n) { if (n == 4096) x[0] = 1; else x[0] = 2; }"},
          {"explicit specialization",
           "template <int S> __global__ void k(float* x, int n) { if (threadIdx.x < n) "
           "x[threadIdx.x] = S; }\n"
           "template <> __global__ void k<4096>(float* x, int n) { if (threadIdx.x < 4096) "
           "x[threadIdx.x] = n; }"},
      });
}

TEST(ShapeBranch, MustWarn) {
  expect_warns(
      "kta-shape-branch",
      {
          {"early exit unless visible",
           "__global__ void k(float* x, int n) { if (n != 4096) return; x[threadIdx.x] = 0; }",
           {"1:38: early exit unless 'n' == 4096 holds: other sizes skip the work; keep a general "
            "path for every size"}},
          {"work only for visible",
           "__global__ void k(float* x, int n) { int i = threadIdx.x; if (n == 4096) { if (i < n) "
           "x[i] = 0; } }",
           {"1:59: work happens only when 'n' == 4096: the branch has no else and nothing follows "
            "it, so other sizes do nothing; add a general fallback"}},
          {"refuses larger",
           "__global__ void k(float* x, long n);\n"
           "int go(float* x, long n) { if (n > 1048576) return 1; k<<<(n + 255) / 256, 256>>>(x, "
           "n); return 0; }",
           {"2:28: early exit unless 'n' <= 1048576 holds: other sizes skip the work; keep a "
            "general path for every size"}},
          {"switch without default",
           "__global__ void k(float* x, int n);\n"
           "void go(float* x, int n) { switch (n) { case 4096: k<<<16, 256>>>(x, n); break; case "
           "8192: k<<<32, 256>>>(x, n); break; } }",
           {"2:28: switch on size 'n' handles only 4096, 8192 and has no default: other sizes are "
            "not handled"}},
          {"launch abi param",
           "struct kta_param { const char* name; int is_float; long i; double f; };\n"
           "__global__ void k(float* x);\n"
           "int go(const kta_param* p, float* x) { if (p[0].i != 4096) return 1; k<<<16, "
           "256>>>(x); "
           "return 0; }",
           {"3:40: early exit unless 'i' == 4096 holds: other sizes skip the work; keep a general "
            "path for every size"}},
          {"shifted literal",
           "__global__ void k(float* x, int n) { if (n != (1 << 20)) return; x[0] = 0; }",
           {"1:38: early exit unless 'n' == 1048576 holds: other sizes skip the work; keep a "
            "general path for every size"}},
      });
}

TEST(ShapeBranch, MustNotWarn) {
  expect_silent(
      "kta-shape-branch",
      {
          {"else fallback", "void a(); void b(); void go(int n) { if (n == 4096) a(); else b(); }"},
          {"return then general",
           "void a(); void b(); void go(int n) { if (n == 4096) { a(); return; } b(); }"},
          {"alignment test",
           "void a(); void b(); void go(int n) { if (n % 4 == 0) { a(); return; } b(); }"},
          {"bit alignment", "void a(); void go(int n) { if ((n & 3) != 0) return; a(); }"},
          {"empty guard",
           "__global__ void k(float* x, int n) { if (n <= 0) return; if (threadIdx.x < n) "
           "x[threadIdx.x] = 0; }"},
          {"switch with default",
           "void a(); void b(); void go(int n) { switch (n) { case 4096: a(); break; default: b(); "
           "} }"},
          {"thread comparison",
           "__global__ void k(float* x, int n) { if (threadIdx.x < 32) x[threadIdx.x] = n; }"},
          {"size vs size", "void a(); void go(int n, int m) { if (n == m) a(); }"},
      });
}

TEST(UnguardedIndex, MustWarn) {
  expect_warns(
      "kta-unguarded-index",
      {
          {"no guard",
           "__global__ void k(const float* x, float* y, int n) { int i = blockIdx.x * blockDim.x + "
           "threadIdx.x; y[i] = x[i] * n; }",
           {"1:101: 'y' is indexed by the thread index with no bounds check against a size "
            "parameter; threads past the end of an unseen shape access out of bounds (guard with "
            "`if (i < n)` or a grid-stride loop)",
            "1:108: 'x' is indexed by the thread index with no bounds check against a size "
            "parameter; threads past the end of an unseen shape access out of bounds (guard with "
            "`if (i < n)` or a grid-stride loop)"}},
          {"literal guard",
           "__global__ void k(float* y, int n) { int i = threadIdx.x; if (i < 4096) y[i] = n; }",
           {"1:73: 'y' is indexed by the thread index with no bounds check against a size "
            "parameter; threads past the end of an unseen shape access out of bounds (guard with "
            "`if (i < n)` or a grid-stride loop)"}},
          {"guard after access",
           "__global__ void k(float* y, int n) { int i = threadIdx.x; y[i] = 0; if (i < n) y[i] = "
           "1; }",
           {"1:59: 'y' is indexed by the thread index with no bounds check against a size "
            "parameter; threads past the end of an unseen shape access out of bounds (guard with "
            "`if (i < n)` or a grid-stride loop)"}},
          {"no size parameter",
           "__global__ void k(float* y) { y[blockIdx.x * blockDim.x + threadIdx.x] = 0; }",
           {"1:31: 'y' is indexed by the thread index and kernel 'k' takes no size parameter: the "
            "extent is implied by the launch, so other shapes go out of bounds"}},
          {"derived pointer",
           "__global__ void k(float* y, int n) { float* row = y + blockIdx.x * n; row[threadIdx.x] "
           "= 0; }",
           {"1:71: 'row' is indexed by the thread index with no bounds check against a size "
            "parameter; threads past the end of an unseen shape access out of bounds (guard with "
            "`if (i < n)` or a grid-stride loop)"}},
      });
}

TEST(UnguardedIndex, MustNotWarn) {
  expect_silent(
      "kta-unguarded-index",
      {
          {"if guard",
           "__global__ void k(float* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if "
           "(i < n) y[i] = 0; }"},
          {"early return",
           "__global__ void k(float* y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if "
           "(i >= n) return; y[i] = 0; }"},
          {"grid stride",
           "__global__ void k(float* y, int n) { for (int i = threadIdx.x; i < n; i += blockDim.x) "
           "y[i] = 0; }"},
          {"ternary",
           "__global__ void k(const float* x, float* y, int n) { int i = threadIdx.x; float v = i "
           "< n ? x[i] : 0; if (i < n) y[i] = v; }"},
          {"clamp",
           "__global__ void k(const float* x, float* y, int n) { int i = min((int)threadIdx.x, n - "
           "1); y[i] = x[i]; }"},
          {"shared memory",
           "__global__ void k(float* y, int n) { __shared__ float s[256]; s[threadIdx.x] = 1; if "
           "(threadIdx.x < n) y[threadIdx.x] = s[0]; }"},
          {"block index only", "__global__ void k(float* y, int rows) { y[blockIdx.x] = rows; }"},
          {"launch abi size",
           "struct kta_tensor { const char* name; void* data; int dtype; int ndim; long shape[8]; "
           "};\n"
           "__global__ void k(float* y, kta_tensor t) { int i = threadIdx.x; if (i < t.shape[0]) "
           "y[i] = 0; }"},
      });
}

TEST(IgnoredSizeParam, MustWarn) {
  expect_warns("kta-ignored-size-param",
               {
                   {"unused",
                    "__global__ void k(float* y, int n) { y[threadIdx.x] = 0; }",
                    {"1:33: size parameter 'n' of kernel 'k' is never read: the kernel cannot "
                     "adapt to the size it is given"}},
                   {"void cast only",
                    "__global__ void k(float* y, long n) { (void)n; y[threadIdx.x] = 0; }",
                    {"1:34: size parameter 'n' of kernel 'k' is never read: the kernel cannot "
                     "adapt to the size it is given"}},
                   {"unnamed",
                    "__global__ void k(float* y, int) { y[threadIdx.x] = 0; }",
                    {"1:32: size parameter #2 of kernel 'k' is never read: the kernel cannot adapt "
                     "to the size it is given"}},
                   {"second of two",
                    "__global__ void k(float* y, int rows, int cols) { if (threadIdx.x < rows) "
                    "y[threadIdx.x] = 0; }",
                    {"1:43: size parameter 'cols' of kernel 'k' is never read: the kernel cannot "
                     "adapt to the size it is given"}},
               });
}

TEST(IgnoredSizeParam, MustNotWarn) {
  expect_silent(
      "kta-ignored-size-param",
      {
          {"read in guard",
           "__global__ void k(float* y, int n) { if (threadIdx.x < n) y[threadIdx.x] = 0; }"},
          {"read in arithmetic",
           "__global__ void k(float* y, size_t n) { y[threadIdx.x % n] = 0; }"},
          {"float param is not a size", "__global__ void k(float* y, float a) { y[0] = 0; }"},
          {"bool flag is not a size", "__global__ void k(float* y, bool f) { y[0] = 0; }"},
          {"host function", "void h(float* y, int n) { y[0] = 0; }"},
      });
}

constexpr const char* kKernel =
    "__global__ void k(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < "
    "n) x[i] = 0; }\n";
constexpr const char* kLoopKernel =
    "__global__ void g(float* x, int n) { for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < "
    "n; i += blockDim.x * gridDim.x) x[i] = 0; }\n";

TEST(FixedLaunchGeometry, MustWarn) {
  std::string k = kKernel, g = kLoopKernel;
  expect_warns(
      "kta-fixed-launch-geometry",
      {
          {"literal grid",
           (k + "void go(float* x, int n) { k<<<16, 256>>>(x, n); }"),
           {"2:32: launch grid of 16 blocks does not depend on any size: the launch covers 16 x "
            "256 threads whatever the shape; derive the grid from the size (e.g. ceil_div(n, "
            "block))"}},
          {"computed from literals",
           (k + "void go(float* x, int n) { k<<<4096 / 256, 256>>>(x, n); }"),
           {"2:32: launch grid of 16 blocks does not depend on any size: the launch covers 16 x "
            "256 threads whatever the shape; derive the grid from the size (e.g. ceil_div(n, "
            "block))"}},
          {"dim3 local",
           (k + "void go(float* x, int n) { dim3 grid(64, 4); k<<<grid, dim3(256)>>>(x, n); }"),
           {"2:50: launch grid of 256 blocks does not depend on any size: the launch covers 256 x "
            "256 threads whatever the shape; derive the grid from the size (e.g. ceil_div(n, "
            "block))"}},
          {"hipLaunchKernelGGL",
           (k + "void go(float* x, int n, hipStream_t s) { "
                "hipLaunchKernelGGL(k, dim3(16), dim3(256), 0, s, x, n); }"),
           {"2:43: launch grid of 16 blocks does not depend on any size: the launch covers 16 x "
            "256 threads whatever the shape; derive the grid from the size (e.g. ceil_div(n, "
            "block))"}},
          {"looping kernel sized to visible",
           (g + "void go(float* x, int n) { g<<<16, 256>>>(x, n); }"),
           {"2:32: launch grid of 16 blocks does not depend on any size: the launch covers 16 x "
            "256 threads whatever the shape, sized to the visible shape; derive the grid from the "
            "size (e.g. ceil_div(n, block))"}},
      });
}

TEST(FixedLaunchGeometry, MustNotWarn) {
  std::string k = kKernel, g = kLoopKernel;
  expect_silent(
      "kta-fixed-launch-geometry",
      {
          {"grid from n", (k + "void go(float* x, int n) { k<<<(n + 255) / 256, 256>>>(x, n); }")},
          {"grid variable from n", (k + "void go(float* x, int n) { int blocks = (n + 255) / 256; "
                                        "k<<<blocks, 256>>>(x, n); }")},
          {"single block", (k + "void go(float* x, int n) { k<<<1, 256>>>(x, n); }")},
          {"persistent grid-stride", (g + "void go(float* x, int n) { g<<<120, 256>>>(x, n); }")},
          {"grid from device",
           (k + "void go(float* x, int n) { hipDeviceProp_t p; hipGetDeviceProperties(&p, 0); "
                "k<<<p.multiProcessorCount * 4, 256>>>(x, n); }")},
      });
}

TEST(UncheckedVectorTail, MustWarn) {
  expect_warns("kta-unchecked-vector-tail",
               {
                   {"float4 no tail",
                    "__global__ void k(const float* x, float* y, int n) { int i = threadIdx.x; if "
                    "(i < n / 4) "
                    "reinterpret_cast<float4*>(y)[i] = reinterpret_cast<const float4*>(x)[i]; }",
                    {"1:90: vector access as float4 with no tail handling: when the size is not a "
                     "multiple of 4 the last elements are skipped or read out of bounds (handle `n "
                     "% 4` with a scalar loop)",
                     "1:124: vector access as float4 with no tail handling: when the size is not a "
                     "multiple of 4 the last elements are skipped or read out of bounds (handle `n "
                     "% 4` with a scalar loop)"}},
                   {"c-style cast",
                    "__global__ void k(float* y, int n) { int i = threadIdx.x; if (i < n / 2) "
                    "((float2*)y)[i] = make_float2(0, 0); }",
                    {"1:75: vector access as float2 with no tail handling: when the size is not a "
                     "multiple of 2 the last elements are skipped or read out of bounds (handle `n "
                     "% 2` with a scalar loop)"}},
                   {"half2",
                    "__global__ void k(__half* y, int n) { int i = threadIdx.x; if (i < n / 2) { "
                    "__half2 v = ((__half2*)y)[i]; ((__half2*)y)[i] = v; } }",
                    {"1:90: vector access as __half2 with no tail handling: when the size is not a "
                     "multiple of 2 the last elements are skipped or read out of bounds (handle `n "
                     "% 2` with a scalar loop)"}},
               });
}

TEST(UncheckedVectorTail, MustNotWarn) {
  expect_silent(
      "kta-unchecked-vector-tail",
      {
          {"scalar tail loop",
           "__global__ void k(float* y, int n) { int i = threadIdx.x; if (i < n / 4) "
           "reinterpret_cast<float4*>(y)[i] = "
           "make_float4(0, 0, 0, 0); if (i == 0) for (int j = n / 4 * 4; j < n; ++j) y[j] = 0; }"},
          {"host remainder check",
           "__global__ void k(float4* y, int v) { if (threadIdx.x < v) y[threadIdx.x] = "
           "make_float4(0, 0, 0, 0); }\n"
           "int go(float* y, int n) { if (n % 4 != 0) return 1; k<<<1, "
           "256>>>(reinterpret_cast<float4*>(y), n / 4); return 0; }"},
          {"already vector typed",
           "__global__ void k(const float4* x, float4* y, int v) { if (threadIdx.x < v) "
           "y[threadIdx.x] = x[threadIdx.x]; }"},
          {"scalar cast",
           "__global__ void k(const int* x, float* y, int n) { if (threadIdx.x < n) y[threadIdx.x] "
           "= ((const float*)x)[threadIdx.x]; }"},
      });
}

TEST(HardcodedWarpSize, MustWarn) {
  expect_warns(
      "kta-hardcoded-warp-size",
      {
          {"lane modulo",
           "__global__ void k(int* y, int n) { int lane = threadIdx.x % 32; if (lane < n) y[lane] "
           "= 0; }",
           {"1:59: lane/warp index computed with '% 32': assumes a warp of 32 threads (use "
            "warpSize; AMD wavefronts are 64 wide, NVIDIA warps 32)"}},
          {"warp divide",
           "__global__ void k(int* y, int n) { int w = threadIdx.x / 64; if (w < n) y[w] = 0; }",
           {"1:56: lane/warp index computed with '/ 64': assumes a warp of 64 threads (use "
            "warpSize; AMD wavefronts are 64 wide, NVIDIA warps 32)"}},
          {"lane mask",
           "__global__ void k(int* y, int n) { int t = threadIdx.x; int lane = t & 31; if (lane < "
           "n) y[lane] = 0; }",
           {"1:70: lane/warp index computed with '& 31': assumes a warp of 32 threads (use "
            "warpSize; AMD wavefronts are 64 wide, NVIDIA warps 32)"}},
          {"warp shift",
           "__global__ void k(int* y, int n) { int w = threadIdx.x >> 5; if (w < n) y[w] = 0; }",
           {"1:56: lane/warp index computed with '>> 5': assumes a warp of 32 threads (use "
            "warpSize; AMD wavefronts are 64 wide, NVIDIA warps 32)"}},
          {"shuffle width",
           "__global__ void k(float* y, int n) { float v = __shfl_xor(1.0f, 1, 32); if "
           "(threadIdx.x < n) y[threadIdx.x] = v; }",
           {"1:68: shuffle width 32 is a hard-coded warp size (use warpSize)"}},
          {"half-warp loop start",
           "__global__ void k(float* y, int n) { float v = 1; for (int o = 16; o > 0; o /= 2) v += "
           "__shfl_down(v, o); "
           "if (threadIdx.x < n) y[threadIdx.x] = v; }",
           {"1:64: shuffle reduction loop starts or stops at 16: it assumes a warp of 32 threads "
            "(loop from warpSize / 2)"}},
          {"named constant",
           "constexpr int kWarpSize = 64; __global__ void k(float* y, int n) { if (threadIdx.x < "
           "n) y[threadIdx.x] = kWarpSize; }",
           {"1:27: 'kWarpSize' = 64 hard-codes the warp size (use warpSize)"}},
          {"macro",
           "#define WARP 32\n__global__ void k(float* y, int n) { if (threadIdx.x < n) "
           "y[threadIdx.x] = WARP; }",
           {"1:14: macro 'WARP' = 32 hard-codes the warp size (use warpSize)"}},
      });
}

TEST(HardcodedWarpSize, MustNotWarn) {
  expect_silent(
      "kta-hardcoded-warp-size",
      {
          {"warpSize",
           "__global__ void k(float* y, int n) { int lane = threadIdx.x % warpSize; float v = 1; "
           "for (int o = warpSize / 2; o > 0; o /= 2) v += __shfl_down(v, o); if (lane < n) "
           "y[lane] = v; }"},
          {"size modulo 32",
           "__global__ void k(float* y, int n) { int pad = n % 32; if (threadIdx.x < n) "
           "y[threadIdx.x] = pad; }"},
          {"block of 32 threads",
           "void go(float* y, int n) { dim3 block(32, 8); (void)block; y[0] = n; }"},
          {"loop without shuffles",
           "__global__ void k(float* y, int n) { for (int o = 16; o > 0; o /= 2) if (threadIdx.x < "
           "n) y[threadIdx.x] += o; }"},
      });
}

// Issue 14: a literal row stride and a shared row buffer equal to a visible dimension that is
// also a small power of two (M = 128 | 512), which read like tile sizes but are shapes.
TEST(ShapeLiteral, RowStrideAndSharedRowMustWarn) {
  expect_warns(
      "kta-shape-literal",
      {
          {"row stride in a subscript",
           "__global__ void k(float* y, const float* x, int rows, int cols) {\n"
           "  int r = blockIdx.y;\n"
           "  int c = blockIdx.x * blockDim.x + threadIdx.x;\n"
           "  if (r < rows && c < cols) y[r * 128 + c] = x[c];\n"
           "}",
           {"4:35: literal 128 as a row stride equals the visible shape value M; unseen shapes "
            "will "
            "not match it (derive it from a size parameter)"}},
          {"row stride through an index variable",
           "__global__ void k(float* y, int rows, int cols) {\n"
           "  int r = blockIdx.y * blockDim.y + threadIdx.y, c = threadIdx.x;\n"
           "  int at = r * 512 + c;\n"
           "  if (r < rows && c < cols) y[at] = 0;\n"
           "}",
           {"3:16: literal 512 as a row stride equals the visible shape value M; unseen shapes "
            "will "
            "not match it (derive it from a size parameter)"}},
          {"row offset of a pointer",
           "__global__ void k(float* y, int cols) {\n"
           "  float* row = y + blockIdx.x * 512;\n"
           "  for (int c = threadIdx.x; c < cols; c += blockDim.x) row[c] = 0;\n"
           "}",
           {"2:33: literal 512 as a row stride equals the visible shape value M; unseen shapes "
            "will "
            "not match it (derive it from a size parameter)"}},
          {"shared row walked to a size",
           "__global__ void k(const float* x, float* y, int cols) {\n"
           "  __shared__ float buf[128];\n"
           "  for (int j = threadIdx.x; j < cols; j += blockDim.x) buf[j] = x[j];\n"
           "  __syncthreads();\n"
           "  for (int j = threadIdx.x; j < cols; j += blockDim.x) y[j] = buf[j];\n"
           "}",
           {"2:24: __shared__ array 'buf' has 128 elements, the visible shape value M, and is "
            "indexed up to size 'cols': unseen larger shapes overflow it (loop over the dimension "
            "in tiles, or size the array at launch)"}},
          {"host variable that sizes the launch",
           "__global__ void k(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; "
           "if (i < n) x[i] = 0; }\n"
           "void launch(float* x, int n) {\n"
           "  int blocks = 4096 / 256;\n"
           "  k<<<blocks, 256>>>(x, n);\n"
           "}",
           {"3:16: literal 4096 in index arithmetic equals the visible shape value N; unseen "
            "shapes "
            "will not match it (derive it from a size parameter)"}},
          {"fast path whose else only leaves",
           "__global__ void k(float* x, int n) {\n"
           "  if (n == 4096) { for (int i = threadIdx.x; i < 4096; i += blockDim.x) x[i] = 0; }\n"
           "  else { return; }\n"
           "}",
           {"2:50: literal 4096 in a comparison equals the visible shape value N; unseen shapes "
            "will not match it (derive it from a size parameter)"}},
      });
}

TEST(ShapeLiteral, HostHelpersAndFastPathsMustNotWarn) {
  expect_silent(
      "kta-shape-literal",
      {
          {"block offset equal to M",
           "__global__ void k(float* x, int n) { int i = blockIdx.x * 512 + threadIdx.x; if (i < "
           "n) x[i] = 0; }"},
          {"shared tile walked to its own bound",
           "__global__ void k(float* x, int n) { __shared__ float t[128];\n"
           "  for (int j = threadIdx.x; j < 128; j += blockDim.x) t[j] = 0;\n"
           "  if (threadIdx.x < n) x[threadIdx.x] = t[threadIdx.x]; }"},
          {"host buffer, recursion limit and page stride",
           "void helper(char* out, int depth) {\n"
           "  char buf[4096];\n"
           "  if (depth > 3) return;\n"
           "  long at = (long)depth * 4096;\n"
           "  out[at] = buf[0];\n"
           "  helper(out, depth + 1);\n"
           "}"},
          {"host page constant",
           "constexpr long kPageBytes = 4096;\n"
           "long pages(long bytes) { return (bytes + kPageBytes - 1) / kPageBytes; }"},
          {"host code beside a launch",
           "__global__ void k(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; "
           "if (i < n) x[i] = 0; }\n"
           "void launch(float* x, int n) {\n"
           "  char name[4096];\n"
           "  long scratch = 4096 * sizeof(float);\n"
           "  k<<<(n + 255) / 256, 256>>>(x, n);\n"
           "  if (scratch > 0) name[0] = 0;\n"
           "}"},
          {"fast path with a general fallback",
           "__global__ void k(float* x, int n) {\n"
           "  if (n == 4096) { for (int i = threadIdx.x; i < 4096; i += blockDim.x) x[i] = 0; }\n"
           "  else { for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] = 0; }\n"
           "}"},
          {"fast path that returns, general path after",
           "__global__ void k(float* x, int n) {\n"
           "  if (n == 1048576) { for (int i = threadIdx.x; i < 1048576; i += 4096) x[i] = 0; "
           "return; }\n"
           "  for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] = 0;\n"
           "}"},
      });
}

// `call->tensors[3]` and `call->num_tensors != 4` are the launcher ABI: with visible sizes 3 and 4
// they are still not shapes, also when the launcher hands the launch to a helper.
TEST(ShapeLiteral, LauncherAbiPositionsMustNotWarn) {
  FileAudit a = audit_code(
      "struct kta_tensor { void* data; long shape[4]; int ndim; };\n"
      "struct kta_call { int num_tensors; kta_tensor tensors[8]; };\n"
      "__global__ void k(float* a, float* b, float* c, float* d, long n) { long i = "
      "blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = a[i] + b[i] + c[i]; }\n"
      "template <int B> void run(float* a, float* b, float* c, float* d, long n) { k<<<(n + "
      "B - 1) / B, B>>>(a, b, c, d, n); }\n"
      "int launch(const kta_call* call) {\n"
      "  if (call->num_tensors != 4) return 1;\n"
      "  float* d = (float*)call->tensors[3].data;\n"
      "  run<256>((float*)call->tensors[0].data, (float*)call->tensors[1].data, "
      "(float*)call->tensors[2].data, d, call->tensors[0].shape[0]);\n"
      "  return 0;\n"
      "}",
      {{"B", {3, 4}}, {"N", {4096}}});
  EXPECT_TRUE(a.parse_errors.empty()) << testing_util::describe(a);
  EXPECT_EQ(findings_of(a, "kta-shape-literal"), std::vector<std::string>{})
      << testing_util::describe(a);
}

TEST(ShapeBranch, HostAndFallbackRules) {
  expect_silent(
      "kta-shape-branch",
      {
          {"host recursion limit",
           "static void walk(int depth) { if (depth > 3) return; walk(depth + 1); }"},
          {"host helper that launches nothing",
           "static int pick(int n) { if (n != 4096) return 0; return 1; }"},
          {"host depth beside a launch",
           "__global__ void k(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; "
           "if (i < n) x[i] = 0; }\n"
           "void launch(float* x, int n, int depth) {\n"
           "  if (depth > 3) return;\n"
           "  k<<<(n + 255) / 256, 256>>>(x, n);\n"
           "}"},
      });
  expect_warns(
      "kta-shape-branch",
      {
          {"else that only leaves",
           "__global__ void k(float* x, int n) {\n"
           "  if (n == 4096) { x[threadIdx.x] = 0; } else { return; }\n"
           "}",
           {"2:3: work happens only when 'n' == 4096: the else branch only leaves, so other sizes "
            "do nothing; add a general fallback"}},
          {"launcher that delegates the launch to a helper",
           "__global__ void k(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; "
           "if (i < n) x[i] = 0; }\n"
           "template <int B> void run(float* x, int n) { k<<<(n + B - 1) / B, B>>>(x, n); }\n"
           "int launch(float* x, int n) {\n"
           "  if (n != 4096) return 1;\n"
           "  run<256>(x, n);\n"
           "  return 0;\n"
           "}",
           {"4:3: early exit unless 'n' == 4096 holds: other sizes skip the work; keep a general "
            "path for every size"}},
          {"host early exit before a fixed launch",
           "__global__ void k(float* x) { x[threadIdx.x] = 0; }\n"
           "int launch(float* x, int n) {\n"
           "  if (n != 4096) return 1;\n"
           "  k<<<16, 256>>>(x);\n"
           "  return 0;\n"
           "}",
           {"3:3: early exit unless 'n' == 4096 holds: other sizes skip the work; keep a general "
            "path for every size"}},
      });
}

TEST(UnguardedIndex, GuardedSpecializationMustNotWarn) {
  expect_silent(
      "kta-unguarded-index",
      {
          {"fast branch of a kernel",
           "__global__ void k(float* x, int n) {\n"
           "  if (n == 4096) { int i = blockIdx.x * 256 + threadIdx.x; x[i] = 0; }\n"
           "  else { for (int i = threadIdx.x; i < n; i += blockDim.x) x[i] = 0; }\n"
           "}"},
          {"kernel launched only from a fast branch",
           "__global__ void exact(float* x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n"
           "__global__ void any(float* x, int n) { int i = blockIdx.x * blockDim.x + "
           "threadIdx.x; if (i < n) x[i] = 0; }\n"
           "void launch(float* x, int n) {\n"
           "  if (n == 4096) exact<<<16, 256>>>(x);\n"
           "  else any<<<(n + 255) / 256, 256>>>(x, n);\n"
           "}"},
      });
  expect_warns(
      "kta-unguarded-index",
      {
          {"kernel launched from a fast branch and elsewhere",
           "__global__ void exact(float* x) { x[blockIdx.x * blockDim.x + threadIdx.x] = 0; }\n"
           "void launch(float* x, int n) {\n"
           "  if (n == 4096) exact<<<16, 256>>>(x);\n"
           "  else exact<<<(n + 255) / 256, 256>>>(x);\n"
           "}",
           {"1:35: 'x' is indexed by the thread index and kernel 'exact' takes no size parameter: "
            "the extent is implied by the launch, so other shapes go out of bounds"}},
      });
}

TEST(FixedLaunchGeometry, GuardedSpecializationMustNotWarn) {
  expect_silent(
      "kta-fixed-launch-geometry",
      {
          {"fixed grid in a fast branch",
           "__global__ void k(float* x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; "
           "if (i < n) x[i] = 0; }\n"
           "void launch(float* x, int n) {\n"
           "  if (n == 4096) k<<<16, 256>>>(x, n);\n"
           "  else k<<<(n + 255) / 256, 256>>>(x, n);\n"
           "}"},
      });
}

}  // namespace
}  // namespace kta::analyzers
