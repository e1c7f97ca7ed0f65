// Feature-heavy kernels of the corpus: partial warps and width shuffles in dynamic shared memory,
// a CAS-loop float max, half2 arithmetic, a 3-D grid, a non-sync ballot, and a templated
// launcher-mode scan that launches from an included .hip file. The kernels whose result depends
// on the warp size run at 32 and 64 and assert each size's result; the lane check's messages are
// compared whole.
#include <cmath>
#include <filesystem>
#include <fstream>

#include "engine/device/cpu/cpu_device.h"
#include "support/device_test_support.h"

namespace kta::test {
namespace {

namespace fs = std::filesystem;

DeviceOptions warp_options(int warp_size, bool check_lanes = false) {
  DeviceOptions o = device_test_options();
  o.warp_size = warp_size;
  o.check_lanes = check_lanes;
  return o;
}

class WarpCorpus : public ::testing::TestWithParam<int> {
 protected:
  int ws() const { return GetParam(); }
  cpu::CpuDevice dev{warp_options(GetParam())};
};

// Row sums of `x` (rows x cols), in double.
std::vector<double> row_sums(const std::vector<float>& x, int rows, int cols) {
  std::vector<double> s(rows, 0.0);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) s[r] += x[r * cols + c];
  return s;
}

// A full-width xor reduction in a partial last warp reads lanes that do not exist: 0 at warp
// size 64 (AMD), so the sums stay right; all bits set at 32 (undefined on NVIDIA), so a sum
// that depends on it is NaN instead of passing by luck. Before, the reader got its own value
// back and the partial warp's sum doubled.
TEST_P(WarpCorpus, FullWidthXorReductionOverAPartialWarp) {
  const int rows = 3, cols = 1000;
  auto x = random_floats(rows * cols, -1, 1);
  auto ref = row_sums(x, rows, cols);
  Buffer bx = upload(dev, x), bo = dev.alloc(4 * rows);
  uint64_t m = compile_kernel(dev, "partial_warp_sums.hip", "row_sum_xor");
  for (int block : {128, 96, 80}) {
    const size_t shared = 4 * ((block + ws() - 1) / ws());
    auto r = dev.launch(m, {ptr(bx, "float"), ptr(bo, "float"), i32(cols)},
                        geometry1(rows, block, shared));
    ASSERT_TRUE(r.ok) << r.error;
    auto o = download<float>(dev, bo, rows);
    const bool partial = block % ws() != 0;
    for (int i = 0; i < rows; ++i) {
      if (partial && ws() == 32)
        EXPECT_TRUE(std::isnan(o[i])) << "block " << block << " row " << i << ": " << o[i];
      else
        EXPECT_NEAR(o[i], ref[i], 1e-3) << "block " << block << " row " << i;
    }
  }
}

TEST_P(WarpCorpus, WidthSixteenShufflesInDynamicSharedMemory) {
  const int rows = 4, cols = 777;
  auto x = random_floats(rows * cols, -1, 1);
  auto ref = row_sums(x, rows, cols);
  Buffer bx = upload(dev, x), bo = dev.alloc(4 * rows);
  // The lane check stays silent: every segment lies inside the block.
  cpu::CpuDevice checked(warp_options(ws(), true));
  Buffer cx = upload(checked, x), co = checked.alloc(4 * rows);
  for (cpu::CpuDevice* d : {&dev, &checked}) {
    uint64_t m = compile_kernel(*d, "partial_warp_sums.hip", "row_sum_segments");
    for (int block : {96, 80, 256}) {
      Buffer in = d == &dev ? bx : cx, out = d == &dev ? bo : co;
      auto r = d->launch(m, {ptr(in, "float"), ptr(out, "float"), i32(cols)},
                         geometry1(rows, block, 4 * (block / 16)));
      ASSERT_TRUE(r.ok) << r.error;
      auto o = download<float>(*d, out, rows);
      for (int i = 0; i < rows; ++i) EXPECT_NEAR(o[i], ref[i], 1e-3) << block << " " << i;
    }
  }
}

// The lane check names the shuffle's line and function, the lane read and why it is missing,
// the reading lane and thread, the kernel and the block.
TEST_P(WarpCorpus, LaneCheckFlagsTheBuggyReduction) {
  cpu::CpuDevice checked(warp_options(ws(), true));
  auto x = random_floats(1000, -1, 1);
  Buffer bx = upload(checked, x), bo = checked.alloc(4);
  uint64_t m = compile_kernel(checked, "partial_warp_sums.hip", "row_sum_xor");
  const int block = ws() == 64 ? 96 : 80;
  auto r = checked.launch(m, {ptr(bx, "float"), ptr(bo, "float"), i32(1000)},
                          geometry1(1, block, 4 * 3));
  ASSERT_FALSE(r.ok);
  if (ws() == 64) {
    EXPECT_EQ(r.error,
              "lane check: __shfl_xor at partial_warp_sums.hip:8 (in warp_sum) reads lane 32 of "
              "warp 1, which has no thread (the block's 96 threads end at its lane 31); read by "
              "lane 0 (thread (64,0,0)) of kernel 'row_sum_xor' in block (0,0,0)");
  } else {
    EXPECT_EQ(r.error,
              "lane check: __shfl_xor at partial_warp_sums.hip:8 (in warp_sum) reads lane 16 of "
              "warp 2, which has no thread (the block's 80 threads end at its lane 15); read by "
              "lane 0 (thread (64,0,0)) of kernel 'row_sum_xor' in block (0,0,0)");
  }
  // Full warps pass the check.
  r = checked.launch(m, {ptr(bx, "float"), ptr(bo, "float"), i32(1000)}, geometry1(1, 128, 8));
  EXPECT_TRUE(r.ok) << r.error;
}

// A shuffle width wider than the warp reads past it at warp size 32: all bits set, or with the
// lane check a failure that says so.
TEST_P(WarpCorpus, ShuffleWiderThanTheWarp) {
  std::vector<int> x(64);
  for (int i = 0; i < 64; ++i) x[i] = 100 + i;
  Buffer bx = upload(dev, x), bo = dev.alloc(4 * 64);
  uint64_t m = compile_kernel(dev, "shuffle_wide.hip", "wide_shuffle");
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "int"), ptr(bo, "int")}, geometry1(1, 64)).ok);
  auto o = download<int>(dev, bo, 64);
  // At 32, warp 0's lanes read lanes 32-63 of their own warp; warp 1's read themselves.
  for (int i = 0; i < 64; ++i)
    EXPECT_EQ(o[i], ws() == 64 ? x[(i + 32) % 64] : i < 32 ? -1 : x[i]) << i;
  cpu::CpuDevice checked(warp_options(ws(), true));
  Buffer cx = upload(checked, x), co = checked.alloc(4 * 64);
  m = compile_kernel(checked, "shuffle_wide.hip", "wide_shuffle");
  auto r = checked.launch(m, {ptr(cx, "int"), ptr(co, "int")}, geometry1(1, 64));
  if (ws() == 64) {
    EXPECT_TRUE(r.ok) << r.error;
  } else {
    EXPECT_EQ(r.error,
              "lane check: __shfl at shuffle_wide.hip:6 (in wide_shuffle) reads lane 32, beyond "
              "the 32 lanes of a warp; read by lane 0 (thread (0,0,0)) of kernel 'wide_shuffle' "
              "in block (0,0,0)");
  }
}

// Threads past n exit before the vote and missing lanes vote 0; every lane (not just lane 0)
// reads the ballot, after lanes resumed before it may have exited.
TEST_P(WarpCorpus, NonSyncBallotCompaction) {
  const int n = 250, block = 96, blocks = (n + block - 1) / block;
  const int per_block = (block + ws() - 1) / ws(), warps = blocks * per_block;
  std::vector<int> x(n);
  for (int i = 0; i < n; ++i) x[i] = (i * 7 + 3) % 11;
  Buffer bx = upload(dev, x), brank = dev.alloc(4 * n);
  Buffer bcount = upload(dev, std::vector<int>(warps, -7));
  uint64_t m = compile_kernel(dev, "ballot_compact.hip", "warp_compact");
  auto r = dev.launch(m, {ptr(bx, "int"), ptr(brank, "int"), ptr(bcount, "int"), i32(n)},
                      geometry1(blocks, block));
  ASSERT_TRUE(r.ok) << r.error;
  auto rank = download<int>(dev, brank, n), count = download<int>(dev, bcount, warps);
  for (int b = 0; b < blocks; ++b) {
    for (int w = 0; w < per_block; ++w) {
      const int first = b * block + w * ws();
      const int end = std::min({first + ws(), b * block + block, n});
      int kept = 0;
      for (int i = first; i < end; ++i) {
        const bool keep = x[i] % 3 != 0;
        EXPECT_EQ(rank[i], keep ? kept : -1) << i;
        kept += keep;
      }
      EXPECT_EQ(count[b * per_block + w], first < end ? kept : -7)
          << "block " << b << " warp " << w;
    }
  }
}

// The templated scan launches through hipLaunchKernelGGL, <<<>>> in its own file and <<<>>> in
// the .hip file it includes (which includes a header of its own folder), with hipMalloc'd
// workspace; the block scan shuffles at the device's warp size.
TEST_P(WarpCorpus, LauncherScanIncludingAFileWithLaunches) {
  const int64_t n = 70001;
  uint64_t m = compile_launcher(dev, "launcher_scan.hip");
  std::vector<int> xi(n);
  std::vector<float> xf(n);
  for (int64_t i = 0; i < n; ++i) xi[i] = int((i * 5 + 1) % 4) - 1, xf[i] = float(xi[i]);
  for (int32_t dtype : {KTA_I32, KTA_F32}) {
    Buffer bx = dtype == KTA_I32 ? upload(dev, xi) : upload(dev, xf), by = dev.alloc(4 * n);
    LauncherArgs a;
    a.tensors.push_back(TensorArg{"x", bx, dtype, {n}});
    a.tensors.push_back(TensorArg{"y", by, dtype, {n}});
    a.params.push_back(ParamArg{"N", false, n, 0});
    auto r = dev.call(m, a);
    ASSERT_TRUE(r.ok) << r.error;
    int64_t sum = 0;
    if (dtype == KTA_I32) {
      auto y = download<int>(dev, by, n);
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(y[i], sum += xi[i]) << i;
    } else {
      auto y = download<float>(dev, by, n);  // small integers: exact in float
      for (int64_t i = 0; i < n; ++i) ASSERT_EQ(y[i], float(sum += xi[i])) << i;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(WarpSize, WarpCorpus, ::testing::Values(32, 64),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return "w" + std::to_string(i.param);
                         });

// Kernels whose results do not depend on the warp size run once, at the default 64.
class Corpus : public ::testing::Test {
 protected:
  cpu::CpuDevice dev{device_test_options()};
};

TEST_F(Corpus, CasLoopFloatAtomicMax) {
  const int n = 5000;
  auto x = random_floats(n, -9, -1);  // all negative: a max that starts at 0 would be wrong
  x[3217] = -0.5f;
  Buffer bx = upload(dev, x);
  for (const char* kernel : {"max_reduce", "max_contended"}) {
    Buffer br = upload(dev, std::vector<float>{-INFINITY});
    uint64_t m = compile_kernel(dev, "atomic_max_float.hip", kernel);
    auto r = dev.launch(m, {ptr(bx, "float"), ptr(br, "float"), i32(n)},
                        geometry1((n + 255) / 256, 256));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(download<float>(dev, br, 1)[0], -0.5f) << kernel;
  }
}

TEST_F(Corpus, Half2ComplexMultiplyAccumulate) {
  const int n = 1000;
  auto halves = [](const std::vector<float>& v) {
    std::vector<_Float16> h(v.size());
    for (size_t i = 0; i < v.size(); ++i) h[i] = _Float16(v[i]);
    return h;
  };
  auto a = halves(random_floats(2 * n, -1, 1, 1)), x = halves(random_floats(2 * n, -1, 1, 2)),
       y = halves(random_floats(2 * n, -1, 1, 3));
  Buffer ba = upload(dev, a), bx = upload(dev, x), by = upload(dev, y), bm = dev.alloc(4 * n);
  uint64_t m = compile_kernel(dev, "half2_complex.hip", "complex_axpy");
  auto r = dev.launch(
      m, {ptr(ba, "__half"), ptr(bx, "__half"), ptr(by, "__half"), ptr(bm, "float"), i32(n)},
      geometry1((n + 127) / 128, 128));
  ASSERT_TRUE(r.ok) << r.error;
  auto out = download<_Float16>(dev, by, 2 * n);
  auto mag = download<float>(dev, bm, n);
  // Half arithmetic: each operation in float, rounded to half.
  auto h = [](float v) { return float(_Float16(v)); };
  for (int i = 0; i < n; ++i) {
    float ar = a[2 * i], ai = a[2 * i + 1], xr = x[2 * i], xi = x[2 * i + 1];
    float re = h(h(h(ar * xr) - h(ai * xi)) + float(y[2 * i]));
    float im = h(h(h(ar * xi) + h(ai * xr)) + float(y[2 * i + 1]));
    ASSERT_EQ(float(out[2 * i]), re) << i;
    ASSERT_EQ(float(out[2 * i + 1]), im) << i;
    ASSERT_EQ(mag[i], h(re * re) + h(im * im)) << i;
  }
}

TEST_F(Corpus, SevenPointStencilOnAThreeDimensionalGrid) {
  const int d = 5, h = 7, w = 9;
  const Dim3 block{4, 4, 2}, grid{(w + 3) / 4, (h + 3) / 4, (d + 1) / 2};
  auto in = random_floats(d * h * w, 0, 1);
  Buffer bi = upload(dev, in), bo = dev.alloc(4 * d * h * w);
  uint64_t m = compile_kernel(dev, "stencil_3d.hip", "stencil7");
  auto r = dev.launch(m, {ptr(bi, "float"), ptr(bo, "float"), i32(d), i32(h), i32(w)},
                      geometry(grid, block));
  ASSERT_TRUE(r.ok) << r.error;
  auto out = download<float>(dev, bo, d * h * w);
  auto at = [&](int z, int y, int x) {
    return z < 0 || z >= d || y < 0 || y >= h || x < 0 || x >= w ? 0.0 : in[(z * h + y) * w + x];
  };
  for (int z = 0; z < d; ++z)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        double s = 6 * at(z, y, x) - at(z - 1, y, x) - at(z + 1, y, x) - at(z, y - 1, x) -
                   at(z, y + 1, x) - at(z, y, x - 1) - at(z, y, x + 1);
        int b = (z / 2) * grid.y * grid.x + (y / 4) * grid.x + x / 4;
        ASSERT_NEAR(out[(z * h + y) * w + x], s + 1000.0 * b, 1e-3) << z << "," << y << "," << x;
      }
}

// ---- launchers and included project files -----------------------------------------------------

CompileResult compile_launcher_result(Device& d, const fs::path& source) {
  CompileRequest req;
  req.source = source;
  req.entry = "kta_launch";
  req.launcher = true;
  return d.compile(req);
}

TEST_F(Corpus, LauncherWithoutTheLaunchHeaderSaysSo) {
  CompileResult c = compile_launcher_result(dev, kernel_path("launcher_no_header.hip"));
  ASSERT_FALSE(c.ok);
  EXPECT_EQ(c.error,
            "compile error: launcher_no_header.hip:9:33: 'kta_call' is not declared: a launcher "
            "includes the launch ABI header, '#include <kta/launch.h>' (it declares kta_call, "
            "kta_tensor and kta_param)");
}

TEST_F(Corpus, ErrorsInAnIncludedFileNameThatFile) {
  CompileResult c = compile_launcher_result(dev, kernel_path("launcher_include_error.hip"));
  ASSERT_FALSE(c.ok);
  EXPECT_EQ(c.error.rfind("compile error: parts/undeclared.hip:8:", 0), 0u) << c.error;
  EXPECT_NE(c.error.find("undeclared_offset"), std::string::npos) << c.error;
  EXPECT_NE(c.error.find("was not declared"), std::string::npos) << c.error;
  EXPECT_EQ(c.log.find("kta-include-"), std::string::npos) << c.log;
  c = compile_launcher_result(dev, kernel_path("launcher_include_malformed.hip"));
  ASSERT_FALSE(c.ok);
  EXPECT_EQ(c.error,
            "compile error: parts/malformed_launch.hip:5: malformed kernel launch: expected "
            "'kernel<<<grid, block[, shared[, stream]]>>>(args)'");
}

// An included file is part of the module's cache key: changing it rebuilds the module.
TEST_F(Corpus, ChangingAnIncludedFileRebuilds) {
  const fs::path dir = fs::path(::testing::TempDir()) / "kta-include-key";
  fs::remove_all(dir);
  fs::create_directories(dir / "parts");
  auto write = [&](const fs::path& p, const std::string& text) { std::ofstream(p) << text; };
  write(dir / "main.hip",
        "#include <hip/hip_runtime.h>\n#include <kta/launch.h>\n#include \"parts/fill.hip\"\n"
        "extern \"C\" int kta_launch(const kta_call* c) {\n"
        "  return fill_all((float*)c->tensors[1].data, c->params[0].i);\n}\n");
  auto fill = [&](const char* value) {
    write(dir / "parts" / "fill.hip",
          std::string("__global__ void fill(float* y, long n) {\n"
                      "  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;\n"
                      "  if (i < n) y[i] = ") +
              value +
              ";\n}\n"
              "int fill_all(float* y, long n) {\n"
              "  fill<<<(n + 63) / 64, 64>>>(y, n);\n"
              "  return hipGetLastError() == hipSuccess ? 0 : 1;\n}\n");
  };
  const int64_t n = 100;
  Buffer by = dev.alloc(4 * n);
  LauncherArgs a;
  a.tensors.push_back(TensorArg{"x", by, KTA_F32, {n}});
  a.tensors.push_back(TensorArg{"y", by, KTA_F32, {n}});
  a.params.push_back(ParamArg{"N", false, n, 0});
  for (const char* value : {"1.5f", "2.5f"}) {
    fill(value);
    CompileResult c = compile_launcher_result(dev, dir / "main.hip");
    ASSERT_TRUE(c.ok) << c.error << "\n" << c.log;
    auto r = dev.call(c.module, a);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_EQ(download<float>(dev, by, n)[n - 1], std::stof(value)) << value;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace kta::test
