// Kernels of the corpus that do not synchronize (plain-loop mode), each checked against a
// plain C++ reference.
#include <cmath>
#include <limits>

#include "engine/device/cpu/cpu_device.h"
#include "support/device_test_support.h"

namespace kta::test {
namespace {

class Kernels : public ::testing::Test {
 protected:
  cpu::CpuDevice dev{device_test_options()};
};

TEST_F(Kernels, VectorAddWithPartialLastBlock) {
  const int n = 1000;
  auto a = random_floats(n, -1, 1, 1), b = random_floats(n, -1, 1, 2);
  Buffer ba = upload(dev, a), bb = upload(dev, b), bc = dev.alloc(n * 4);
  uint64_t m = compile_kernel(dev, "vector_add.hip", "vector_add",
                              {ptr({}, "float"), ptr({}, "float"), ptr({}, "float"), i64(0)});
  auto r = dev.launch(m, {ptr(ba, "float"), ptr(bb, "float"), ptr(bc, "float"), i64(n)},
                      geometry1(4, 256));
  ASSERT_TRUE(r.ok) << r.error;
  auto c = download<float>(dev, bc, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

TEST_F(Kernels, SaxpyGridStride) {
  const int n = 5000;
  auto x = random_floats(n, -2, 2, 3), y = random_floats(n, -2, 2, 4);
  Buffer bx = upload(dev, x), by = upload(dev, y);
  uint64_t m = compile_kernel(dev, "saxpy_grid_stride.hip", "saxpy");
  auto r = dev.launch(m, {f32(1.5), ptr(bx, "float"), ptr(by, "float"), i32(n)}, geometry1(3, 64));
  ASSERT_TRUE(r.ok) << r.error;
  auto out = download<float>(dev, by, n);
  // Kernels may contract a * x + y into one fma, as GPU compilers do.
  for (int i = 0; i < n; ++i) ASSERT_NEAR(out[i], 1.5 * x[i] + y[i], 1e-6) << i;
}

TEST_F(Kernels, GeluErf) {
  const int n = 3000;
  auto x = random_floats(n, -5, 5);
  Buffer bx = upload(dev, x), by = dev.alloc(n * 4);
  uint64_t m =
      compile_kernel(dev, "gelu.hip", "gelu", {ptr({}, "float"), ptr({}, "float"), i64(0)});
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "float"), ptr(by, "float"), i64(n)}, geometry1(12, 256)).ok);
  auto y = download<float>(dev, by, n);
  for (int i = 0; i < n; ++i)
    ASSERT_NEAR(y[i], 0.5 * x[i] * (1 + std::erf(x[i] / std::sqrt(2.0))), 1e-5) << i;
}

TEST_F(Kernels, FastMathIntrinsics) {
  const int n = 777;
  auto x = random_floats(n, -4, 4);
  Buffer bx = upload(dev, x), by = dev.alloc(n * 4);
  uint64_t m = compile_kernel(dev, "fast_math.hip", "fast_math");
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "float"), ptr(by, "float"), i32(n)}, geometry1(7, 128)).ok);
  auto y = download<float>(dev, by, n);
  for (int i = 0; i < n; ++i) {
    double v = x[i], e = std::exp(v);
    double ref = std::log(1 + std::fabs(v)) / std::sqrt(1 + v * v) +
                 std::min(1.0, std::max(0.0, e / (1 + e))) + 1;
    ASSERT_NEAR(y[i], ref, 1e-4) << i;
  }
}

TEST_F(Kernels, DoubleMath) {
  const int n = 500;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i - 250) * 0.013;
  Buffer bx = upload(dev, x), by = dev.alloc(n * 8);
  uint64_t m = compile_kernel(dev, "double_math.hip", "double_math",
                              {ptr({}, "double"), ptr({}, "double"), i32(0)});
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "double"), ptr(by, "double"), i32(n)}, geometry1(2, 256)).ok);
  auto y = download<double>(dev, by, n);
  for (int i = 0; i < n; ++i)
    ASSERT_NEAR(y[i], std::sqrt(std::fabs(x[i])) + std::exp(-x[i] * x[i]) + std::tanh(x[i]), 1e-12)
        << i;
}

TEST_F(Kernels, AtomicHistogram) {
  const int n = 20000;
  std::vector<uint8_t> data(n);
  for (int i = 0; i < n; ++i) data[i] = uint8_t((i * 7919) % 251);
  std::vector<uint32_t> zero(256, 0), ref(256, 0);
  for (uint8_t v : data) ref[v]++;
  Buffer bd = upload(dev, data), bb = upload(dev, zero);
  uint64_t m = compile_kernel(dev, "histogram_atomic.hip", "histogram",
                              {ptr({}, "uint8_t"), ptr({}, "uint32_t"), i32(0)});
  ASSERT_TRUE(
      dev.launch(m, {ptr(bd, "uint8_t"), ptr(bb, "uint32_t"), i32(n)}, geometry1(16, 128)).ok);
  EXPECT_EQ(download<uint32_t>(dev, bb, 256), ref);
}

TEST_F(Kernels, AtomicsOfEveryKind) {
  const int n = 3000;
  std::vector<int> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i * 37) % 1001 - 300;
  std::vector<int> ints = {0, 1 << 30, -(1 << 30), -1, 0, 0, 0, 0};
  std::vector<unsigned long long> big = {0, 0, 0};
  std::vector<float> f = {0};
  std::vector<double> d = {0};
  Buffer bx = upload(dev, x), bi = upload(dev, ints), bg = upload(dev, big), bf = upload(dev, f),
         bd = upload(dev, d);
  uint64_t m = compile_kernel(dev, "atomics_mix.hip", "atomics_mix");
  auto r = dev.launch(m,
                      {ptr(bx, "int"), ptr(bi, "int"), ptr(bg, "uint64_t"), ptr(bf, "float"),
                       ptr(bd, "double"), i32(n)},
                      geometry1(12, 256));
  ASSERT_TRUE(r.ok) << r.error;
  int sum = 0, mn = 1 << 30, mx = -(1 << 30), a = -1, o = 0, xo = 0;
  unsigned long long bsum = 0, bmax = 0;
  for (int v : x) {
    sum += v, mn = std::min(mn, v), mx = std::max(mx, v), a &= v | 0x100, o |= v, xo ^= v;
    bsum += (unsigned long long)v;
    bmax = std::max(bmax, (unsigned long long)v);
  }
  auto gi = download<int>(dev, bi, 8);
  EXPECT_EQ(gi, (std::vector<int>{sum, mn, mx, a, o, xo, -sum, n}));
  EXPECT_EQ(download<unsigned long long>(dev, bg, 3),
            (std::vector<unsigned long long>{bsum, bmax, 7}));
  EXPECT_EQ(download<float>(dev, bf, 1)[0], 0.5f * n);
  EXPECT_EQ(download<double>(dev, bd, 1)[0], 0.25 * n);
}

TEST_F(Kernels, HalfPrecisionAxpy) {
  const int n = 300;
  std::vector<_Float16> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = _Float16((i - 150) * 0.02f), y[i] = _Float16(i * 0.01f);
  Buffer bx = upload(dev, x), by = upload(dev, y);
  KernelArg a = f32(1.5);
  uint64_t m = compile_kernel(dev, "half_axpy.hip", "half_axpy",
                              {f32(0), ptr({}, "__half"), ptr({}, "__half"), i32(0)});
  ASSERT_TRUE(
      dev.launch(m, {a, ptr(bx, "__half"), ptr(by, "__half"), i32(n)}, geometry1(2, 256)).ok);
  auto out = download<_Float16>(dev, by, n);
  for (int i = 0; i < n; ++i) {
    float ref = float(_Float16(std::fma(1.5f, float(x[i]), float(y[i])))) + 0.5f;
    ASSERT_NEAR(float(out[i]), float(_Float16(ref)), 1e-3) << i;
  }
}

TEST_F(Kernels, Half2Pairs) {
  const int n = 100;
  std::vector<_Float16> x(2 * n), y(2 * n);
  for (int i = 0; i < 2 * n; ++i) x[i] = _Float16(i * 0.05f), y[i] = _Float16(1.0f - i * 0.01f);
  Buffer bx = upload(dev, x), by = upload(dev, y), bo = dev.alloc(4 * n), bs = dev.alloc(4 * n);
  uint64_t m = compile_kernel(dev, "half2_ops.hip", "half2_ops");
  ASSERT_TRUE(
      dev.launch(
             m, {ptr(bx, "__half"), ptr(by, "__half"), ptr(bo, "__half"), ptr(bs, "float"), i32(n)},
             geometry1(1, 128))
          .ok);
  auto o = download<_Float16>(dev, bo, 2 * n);
  auto s = download<float>(dev, bs, n);
  for (int i = 0; i < 2 * n; ++i) {
    _Float16 ref = _Float16(float(_Float16(float(x[i]) * float(y[i]))) + float(x[i]));
    ASSERT_EQ(float(o[i]), float(ref)) << i;
  }
  for (int i = 0; i < n; ++i) ASSERT_FLOAT_EQ(s[i], float(o[2 * i]) + float(o[2 * i + 1]));
}

uint16_t to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fffu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}
float from_bf16(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

TEST_F(Kernels, Bfloat16Scale) {
  const int n = 400;
  std::vector<uint16_t> x(n);
  for (int i = 0; i < n; ++i) x[i] = to_bf16((i - 200) * 0.37f);
  Buffer bx = upload(dev, x), by = dev.alloc(2 * n);
  uint64_t m =
      compile_kernel(dev, "bf16_scale.hip", "bf16_scale",
                     {ptr({}, "__hip_bfloat16"), ptr({}, "__hip_bfloat16"), f32(0), i32(0)});
  ASSERT_TRUE(dev.launch(m,
                         {ptr(bx, "__hip_bfloat16"), ptr(by, "__hip_bfloat16"), f32(0.5), i32(n)},
                         geometry1(2, 256))
                  .ok);
  auto y = download<uint16_t>(dev, by, n);
  for (int i = 0; i < n; ++i) {
    float ref = from_bf16(to_bf16(from_bf16(to_bf16(from_bf16(x[i]) * 0.5f)) + from_bf16(x[i])));
    ASSERT_EQ(from_bf16(y[i]), ref) << i;
  }
}

TEST_F(Kernels, ThreeDimensionalGeometry) {
  const int nx = 13, ny = 7, nz = 5;
  std::vector<int> init(nx * ny * nz, -1);
  Buffer b = upload(dev, init);
  uint64_t m = compile_kernel(dev, "geometry_3d.hip", "geometry_3d");
  auto r = dev.launch(m, {ptr(b, "int"), i32(nx), i32(ny), i32(nz)},
                      geometry(Dim3{4, 3, 2}, Dim3{4, 3, 3}));
  ASSERT_TRUE(r.ok) << r.error;
  auto out = download<int>(dev, b, init.size());
  for (int i = 0; i < nx * ny * nz; ++i) ASSERT_EQ(out[i], i);
}

TEST_F(Kernels, TemplateKernelByExplicitArguments) {
  const int n = 100;
  auto x = random_floats(n, -1, 1);
  Buffer bx = upload(dev, x), by = dev.alloc(4 * n);
  uint64_t m = compile_kernel(dev, "template_kernel.hip", "scale<float, 3>",
                              {ptr({}, "float"), ptr({}, "float"), i32(0)});
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "float"), ptr(by, "float"), i32(n)}, geometry1(1, 128)).ok);
  auto y = download<float>(dev, by, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(y[i], 3 * x[i]);
}

TEST_F(Kernels, DevicePrintfIsCollected) {
  uint64_t m = compile_kernel(dev, "printf_kernel.hip", "hello");
  auto r = dev.launch(m, {i32(42)}, geometry1(3, 64));
  ASSERT_TRUE(r.ok) << r.error;
  for (int b = 0; b < 3; ++b)
    EXPECT_NE(r.output.find("block " + std::to_string(b) + " of 3 says 42\n"), std::string::npos)
        << r.output;
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 3);
}

TEST_F(Kernels, VectorTypes) {
  const int n4 = 50;
  auto x = random_floats(4 * n4, -1, 1);
  std::vector<int> pairs(2 * n4);
  for (int i = 0; i < 2 * n4; ++i) pairs[i] = i;
  Buffer bx = upload(dev, x), by = dev.alloc(16 * n4), bp = upload(dev, pairs);
  uint64_t m = compile_kernel(dev, "vector_types.hip", "vec4_scale",
                              {ptr({}, "float"), ptr({}, "float"), ptr({}, "int"), f32(0), i32(0)});
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "float"), ptr(by, "float"), ptr(bp, "int"), f32(2), i32(n4)},
                         geometry1(1, 64))
                  .ok);
  auto y = download<float>(dev, by, 4 * n4);
  auto p = download<int>(dev, bp, 2 * n4);
  for (int i = 0; i < 4 * n4; ++i) ASSERT_EQ(y[i], 2 * x[i] + 1);
  for (int i = 0; i < n4; ++i) ASSERT_TRUE(p[2 * i] == 2 * i + 1 && p[2 * i + 1] == 2 * i);
}

TEST_F(Kernels, DeviceFunctionsAndAliases) {
  const int n = 333;
  auto x = random_floats(n, -1, 1);
  Buffer bx = upload(dev, x), by = dev.alloc(4 * n);
  uint64_t m = compile_kernel(dev, "device_functions.hip", "stencil");
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "float"), ptr(by, "float"), i32(n)}, geometry1(3, 128)).ok);
  auto y = download<float>(dev, by, n);
  for (int i = 0; i < n; ++i) {
    float l = x[std::max(i - 1, 0)], r = x[std::min(i + 1, n - 1)];
    ASSERT_NEAR(y[i], double(l) * l + double(x[i]) * x[i] * x[i] + r, 1e-6) << i;
  }
}

TEST_F(Kernels, IntegerIntrinsics) {
  std::vector<unsigned> x = {1u, 0x80000000u, 0xF0F0u, 12345678u, 0xFFFFFFFFu, 6u};
  const int n = int(x.size());
  Buffer bx = upload(dev, x), bo = dev.alloc(16 * n);
  uint64_t m = compile_kernel(dev, "int_intrinsics.hip", "int_intrinsics");
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "uint32_t"), ptr(bo, "int"), i32(n)}, geometry1(1, 64)).ok);
  auto o = download<int>(dev, bo, 4 * n);
  for (int i = 0; i < n; ++i) {
    unsigned v = x[i], rev = 0;
    for (int b = 0; b < 32; ++b) rev |= ((v >> b) & 1u) << (31 - b);
    EXPECT_EQ(o[4 * i], __builtin_popcount(v));
    EXPECT_EQ(o[4 * i + 1], v == 0 ? 32 : __builtin_clz(v));
    EXPECT_EQ(o[4 * i + 2], __builtin_ffs(int(v)));
    EXPECT_EQ(o[4 * i + 3], int(rev >> 16) + int((int64_t(int(v)) * 3) >> 32));
  }
}

// INFINITY, FLT_MAX, INT_MAX, M_PI, ... used bare, as HIP allows: the cpu device accepts what
// hipRTC's prelude accepts (tests/hip compiles the same file through hipRTC).
TEST_F(Kernels, CLibraryConstantsWithoutIncludes) {
  Buffer bf = dev.alloc(8 * 4), bd = dev.alloc(4 * 8), bi = dev.alloc(6 * 4), bl = dev.alloc(2 * 8);
  uint64_t m = compile_kernel(dev, "c_constants.hip", "c_constants");
  ASSERT_TRUE(dev.launch(m,
                         {ptr(bf, "float"), ptr(bd, "double"), ptr(bi, "int"), ptr(bl, "int64_t")},
                         geometry1(1, 64))
                  .ok);
  auto f = download<float>(dev, bf, 8);
  EXPECT_TRUE(std::isinf(f[0]) && f[0] < 0);
  EXPECT_TRUE(std::isnan(f[1]));
  EXPECT_TRUE(std::isinf(f[2]) && f[2] > 0);
  EXPECT_EQ(f[3], std::numeric_limits<float>::max());
  EXPECT_EQ(f[4], std::numeric_limits<float>::min());
  EXPECT_EQ(f[5], std::numeric_limits<float>::epsilon());
  EXPECT_EQ(f[6], float(3.14159265358979323846));
  EXPECT_EQ(f[7], float(0.70710678118654752440));
  auto d = download<double>(dev, bd, 4);
  EXPECT_EQ(d[0], std::numeric_limits<double>::max());
  EXPECT_EQ(d[1], std::numeric_limits<double>::min());
  EXPECT_TRUE(std::isinf(d[2]));
  EXPECT_EQ(d[3], std::numeric_limits<double>::epsilon());
  EXPECT_EQ(download<int>(dev, bi, 6),
            (std::vector<int>{std::numeric_limits<int>::max(), std::numeric_limits<int>::min(), 8,
                              std::numeric_limits<int32_t>::max(), 1, 24}));
  EXPECT_EQ(download<int64_t>(dev, bl, 2),
            (std::vector<int64_t>{std::numeric_limits<int64_t>::max(),
                                  std::numeric_limits<int64_t>::min()}));
}

}  // namespace
}  // namespace kta::test
