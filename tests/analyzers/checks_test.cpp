// Per-check tests: code each check must warn on, and code it must leave alone.
// Shapes: N = 4096 | 1048576, M = 128 | 512, K = 64.
#include <gtest/gtest.h>

#include "tests/analyzers/audit_test_util.h"

namespace kta::analyzers {
namespace {

using testing_util::audit_code;
using testing_util::count_check;

struct Case {
  const char* name;
  const char* code;
};

void expect_warns(const std::string& check, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    FileAudit a = audit_code(c.code);
    EXPECT_TRUE(a.parse_errors.empty()) << c.name << ": " << testing_util::describe(a);
    EXPECT_GE(count_check(a, check), 1) << check << " must warn on " << c.name << "\n"
                                        << testing_util::describe(a);
  }
}

void expect_silent(const std::string& check, const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    FileAudit a = audit_code(c.code);
    EXPECT_TRUE(a.parse_errors.empty()) << c.name << ": " << testing_util::describe(a);
    EXPECT_EQ(count_check(a, check), 0) << check << " must not warn on " << c.name << "\n"
                                        << testing_util::describe(a);
  }
}

TEST(ShapeLiteral, MustWarn) {
  expect_warns(
      "kta-shape-literal",
      {
          {"loop bound",
           "__global__ void k(float* x, int n) { for (int i = 0; i < 4096; ++i) x[i] = n; }"},
          {"index stride", "__global__ void k(float* x, int n) { int r = n; x[r * 4096] = 0; }"},
          {"array bound",
           "__global__ void k(float* x, int n) { __shared__ float b[4096]; if (n) b[0] = x[0]; }"},
          {"size-named constant",
           "constexpr int kRows = 512; __global__ void k(float* x, int n) { if (n) x[0] = kRows; "
           "}"},
          {"axis-named small constant",
           "const int K = 64; __global__ void k(float* x, int n) { if (n) x[0] = K; }"},
          {"macro",
           "#define SIZE 1048576\n__global__ void k(float* x, int n) { if (n < SIZE) x[0] = 0; }"},
          {"product",
           "__global__ void k(float* x, int n) { for (int i = 0; i < 524288; ++i) x[i] = n; }"},
          {"quotient",
           "__global__ void k(float* x, int n) { for (int i = 0; i < 8192; ++i) x[i] = n; }"},
          {"kernel argument",
           "__global__ void k(float* x, int n) { if (threadIdx.x < n) x[threadIdx.x] = 0; }\n"
           "void go(float* x) { k<<<(1048576 + 255) / 256, 256>>>(x, 1048576); }"},
          {"local variable",
           "void go(float* x); void h(float* x) { int n = 4096; (void)n; go(x); }"},
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
           "__global__ void k(float* x, int n) { if (n != 4096) return; x[threadIdx.x] = 0; }"},
          {"work only for visible",
           "__global__ void k(float* x, int n) { int i = threadIdx.x; if (n == 4096) { if (i < n) "
           "x[i] = 0; } }"},
          {"refuses larger",
           "int go(float* x, long n) { if (n > 1048576) return 1; x[0] = 0; return 0; }"},
          {"switch without default",
           "void go(float* x, int n) { switch (n) { case 4096: x[0] = 1; break; case 8192: x[0] = "
           "2; break; } }"},
          {"launch abi param",
           "struct kta_param { const char* name; int is_float; long i; double f; };\n"
           "int go(const kta_param* p, float* x) { if (p[0].i != 4096) return 1; x[0] = 0; return "
           "0; }"},
          {"shifted literal",
           "__global__ void k(float* x, int n) { if (n != (1 << 20)) return; x[0] = 0; }"},
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
           "threadIdx.x; y[i] = x[i] * n; }"},
          {"literal guard",
           "__global__ void k(float* y, int n) { int i = threadIdx.x; if (i < 4096) y[i] = n; }"},
          {"guard after access",
           "__global__ void k(float* y, int n) { int i = threadIdx.x; y[i] = 0; if (i < n) y[i] = "
           "1; }"},
          {"no size parameter",
           "__global__ void k(float* y) { y[blockIdx.x * blockDim.x + threadIdx.x] = 0; }"},
          {"derived pointer",
           "__global__ void k(float* y, int n) { float* row = y + blockIdx.x * n; row[threadIdx.x] "
           "= 0; }"},
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
                   {"unused", "__global__ void k(float* y, int n) { y[threadIdx.x] = 0; }"},
                   {"void cast only",
                    "__global__ void k(float* y, long n) { (void)n; y[threadIdx.x] = 0; }"},
                   {"unnamed", "__global__ void k(float* y, int) { y[threadIdx.x] = 0; }"},
                   {"second of two",
                    "__global__ void k(float* y, int rows, int cols) { if (threadIdx.x < rows) "
                    "y[threadIdx.x] = 0; }"},
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
          {"literal grid", (k + "void go(float* x, int n) { k<<<16, 256>>>(x, n); }").c_str()},
          {"computed from literals",
           (k + "void go(float* x, int n) { k<<<4096 / 256, 256>>>(x, n); }").c_str()},
          {"dim3 local",
           (k + "void go(float* x, int n) { dim3 grid(64, 4); k<<<grid, dim3(256)>>>(x, n); }")
               .c_str()},
          {"hipLaunchKernelGGL", (k + "void go(float* x, int n, hipStream_t s) { "
                                      "hipLaunchKernelGGL(k, dim3(16), dim3(256), 0, s, x, n); }")
                                     .c_str()},
          {"looping kernel sized to visible",
           (g + "void go(float* x, int n) { g<<<16, 256>>>(x, n); }").c_str()},
      });
}

TEST(FixedLaunchGeometry, MustNotWarn) {
  std::string k = kKernel, g = kLoopKernel;
  expect_silent(
      "kta-fixed-launch-geometry",
      {
          {"grid from n",
           (k + "void go(float* x, int n) { k<<<(n + 255) / 256, 256>>>(x, n); }").c_str()},
          {"grid variable from n",
           (k +
            "void go(float* x, int n) { int blocks = (n + 255) / 256; k<<<blocks, 256>>>(x, n); }")
               .c_str()},
          {"single block", (k + "void go(float* x, int n) { k<<<1, 256>>>(x, n); }").c_str()},
          {"persistent grid-stride",
           (g + "void go(float* x, int n) { g<<<120, 256>>>(x, n); }").c_str()},
          {"grid from device",
           (k + "void go(float* x, int n) { hipDeviceProp_t p; hipGetDeviceProperties(&p, 0); "
                "k<<<p.multiProcessorCount * 4, 256>>>(x, n); }")
               .c_str()},
      });
}

TEST(UncheckedVectorTail, MustWarn) {
  expect_warns("kta-unchecked-vector-tail",
               {
                   {"float4 no tail",
                    "__global__ void k(const float* x, float* y, int n) { int i = threadIdx.x; if "
                    "(i < n / 4) "
                    "reinterpret_cast<float4*>(y)[i] = reinterpret_cast<const float4*>(x)[i]; }"},
                   {"c-style cast",
                    "__global__ void k(float* y, int n) { int i = threadIdx.x; if (i < n / 2) "
                    "((float2*)y)[i] = make_float2(0, 0); }"},
                   {"half2",
                    "__global__ void k(__half* y, int n) { int i = threadIdx.x; if (i < n / 2) { "
                    "__half2 v = ((__half2*)y)[i]; ((__half2*)y)[i] = v; } }"},
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
           "= 0; }"},
          {"warp divide",
           "__global__ void k(int* y, int n) { int w = threadIdx.x / 64; if (w < n) y[w] = 0; }"},
          {"lane mask",
           "__global__ void k(int* y, int n) { int t = threadIdx.x; int lane = t & 31; if (lane < "
           "n) y[lane] = 0; }"},
          {"warp shift",
           "__global__ void k(int* y, int n) { int w = threadIdx.x >> 5; if (w < n) y[w] = 0; }"},
          {"shuffle width",
           "__global__ void k(float* y, int n) { float v = __shfl_xor(1.0f, 1, 32); if "
           "(threadIdx.x < n) y[threadIdx.x] = v; }"},
          {"half-warp loop start",
           "__global__ void k(float* y, int n) { float v = 1; for (int o = 16; o > 0; o /= 2) v += "
           "__shfl_down(v, o); "
           "if (threadIdx.x < n) y[threadIdx.x] = v; }"},
          {"named constant",
           "constexpr int kWarpSize = 64; __global__ void k(float* y, int n) { if (threadIdx.x < "
           "n) y[threadIdx.x] = kWarpSize; }"},
          {"macro",
           "#define WARP 32\n__global__ void k(float* y, int n) { if (threadIdx.x < n) "
           "y[threadIdx.x] = WARP; }"},
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

}  // namespace
}  // namespace kta::analyzers
