// Kernels of the corpus that synchronize (fiber mode): shared-memory tiles, barriers, warp
// shuffles and votes under both warp sizes, dynamic shared memory.
#include <cmath>
#include <numeric>

#include "engine/device/cpu/cpu_device.h"
#include "support/device_test_support.h"

namespace kta::test {
namespace {

class Sync : public ::testing::Test {
 protected:
  cpu::CpuDevice dev{device_test_options()};
};

TEST_F(Sync, TiledTranspose) {
  const int rows = 37, cols = 53;
  auto in = random_floats(rows * cols, -1, 1);
  Buffer bi = upload(dev, in), bo = dev.alloc(4 * rows * cols);
  uint64_t m = compile_kernel(dev, "transpose_tiled.hip", "transpose");
  auto r = dev.launch(m, {ptr(bi, "float"), ptr(bo, "float"), i32(rows), i32(cols)},
                      geometry(Dim3{(cols + 15) / 16, (rows + 15) / 16, 1}, Dim3{16, 16, 1}));
  ASSERT_TRUE(r.ok) << r.error;
  auto out = download<float>(dev, bo, rows * cols);
  for (int y = 0; y < rows; ++y)
    for (int x = 0; x < cols; ++x) ASSERT_EQ(out[x * rows + y], in[y * cols + x]);
}

TEST_F(Sync, TiledMatmul) {
  const int M = 45, N = 33, K = 70;
  auto A = random_floats(M * K, -1, 1, 5), B = random_floats(K * N, -1, 1, 6);
  Buffer ba = upload(dev, A), bb = upload(dev, B), bc = dev.alloc(4 * M * N);
  uint64_t m = compile_kernel(dev, "matmul_tiled.hip", "matmul");
  auto r =
      dev.launch(m, {ptr(ba, "float"), ptr(bb, "float"), ptr(bc, "float"), i32(M), i32(N), i32(K)},
                 geometry(Dim3{(N + 15) / 16, (M + 15) / 16, 1}, Dim3{16, 16, 1}));
  ASSERT_TRUE(r.ok) << r.error;
  auto C = download<float>(dev, bc, M * N);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0;
      for (int k = 0; k < K; ++k) ref += double(A[i * K + k]) * B[k * N + j];
      ASSERT_NEAR(C[i * N + j], ref, 1e-4) << i << "," << j;
    }
}

TEST_F(Sync, BlockReduction) {
  const int n = 100000, blocks = 20;
  auto x = random_floats(n, -1, 1);
  Buffer bx = upload(dev, x), bp = dev.alloc(4 * blocks);
  uint64_t m = compile_kernel(dev, "block_reduce.hip", "block_reduce");
  ASSERT_TRUE(
      dev.launch(m, {ptr(bx, "float"), ptr(bp, "float"), i32(n)}, geometry1(blocks, 256)).ok);
  auto p = download<float>(dev, bp, blocks);
  double got = std::accumulate(p.begin(), p.end(), 0.0),
         ref = std::accumulate(x.begin(), x.end(), 0.0);
  EXPECT_NEAR(got, ref, 1e-2);
  for (int b = 0; b < blocks; ++b) {
    double part = 0;
    for (int i = b * 256; i < n; i += 256 * blocks)
      for (int t = 0; t < 256 && i + t < n; ++t) part += x[i + t];
    EXPECT_NEAR(p[b], part, 1e-3) << b;
  }
}

class Warps : public Sync, public ::testing::WithParamInterface<int> {};

TEST_P(Warps, ShuffleDownReduction) {
  const int ws = GetParam(), n = 1000, threads = 1024;
  auto x = random_floats(n, -1, 1);
  Buffer bx = upload(dev, x), bo = dev.alloc(4 * threads / ws);
  uint64_t m = compile_kernel(dev, "warp_reduce.hip", "warp_reduce", {}, ws);
  ASSERT_TRUE(
      dev.launch(m, {ptr(bx, "float"), ptr(bo, "float"), i32(n)}, geometry1(threads / 256, 256))
          .ok);
  auto o = download<float>(dev, bo, threads / ws);
  for (int w = 0; w < threads / ws; ++w) {
    double ref = 0;
    for (int i = w * ws; i < (w + 1) * ws && i < n; ++i) ref += x[i];
    ASSERT_NEAR(o[w], ref, 1e-4) << w;
  }
}

TEST_P(Warps, BallotAnyAll) {
  const int ws = GetParam(), threads = 256, warps = threads / ws;
  std::vector<int> x(threads);
  for (int i = 0; i < threads; ++i) x[i] = (i % 3 == 0) ? -i : ((i / ws) % 2 ? 100 + i : i % 7);
  Buffer bx = upload(dev, x), bc = dev.alloc(4 * warps), ba = dev.alloc(4 * warps),
         bs = dev.alloc(4 * warps);
  uint64_t m = compile_kernel(dev, "warp_vote.hip", "warp_vote", {}, ws);
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "int"), ptr(bc, "int"), ptr(ba, "int"), ptr(bs, "int")},
                         geometry1(2, 128))
                  .ok);
  auto c = download<int>(dev, bc, warps), a = download<int>(dev, ba, warps),
       s = download<int>(dev, bs, warps);
  for (int w = 0; w < warps; ++w) {
    int count = 0, neg = 0, small = 1;
    for (int i = w * ws; i < (w + 1) * ws; ++i)
      count += x[i] > 0, neg |= x[i] < 0, small &= x[i] < 100;
    EXPECT_EQ(c[w], count) << w;
    EXPECT_EQ(a[w], neg) << w;
    EXPECT_EQ(s[w], small) << w;
  }
}

TEST_P(Warps, ShuffleVariants) {
  const int ws = GetParam(), n = 128;
  std::vector<int> x(n);
  for (int i = 0; i < n; ++i) x[i] = i * 10 + 1;
  Buffer bx = upload(dev, x), bo = dev.alloc(4 * 6 * n);
  uint64_t m = compile_kernel(dev, "shuffle_variants.hip", "shuffles", {}, ws);
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "int"), ptr(bo, "int"), i32(n)}, geometry1(1, n)).ok);
  auto o = download<int>(dev, bo, 6 * n);
  for (int i = 0; i < n; ++i) {
    int lane = i % ws, base = i - lane;
    EXPECT_EQ(o[0 * n + i], x[base + 3]) << i;
    EXPECT_EQ(o[1 * n + i], lane >= 1 ? x[i - 1] : x[i]) << i;
    EXPECT_EQ(o[2 * n + i], x[base + (lane ^ 1)]) << i;
    EXPECT_EQ(o[3 * n + i], (lane % 8) + 2 < 8 ? x[i + 2] : x[i]) << i;
    EXPECT_EQ(o[4 * n + i], x[i - i % 8]) << i;
    EXPECT_EQ(o[5 * n + i], x[base + (lane ^ 4)]) << i;
  }
}

TEST_P(Warps, RmsNormOneWarpPerRow) {
  const int ws = GetParam(), rows = 10, cols = 100;
  auto x = random_floats(rows * cols, -2, 2);
  Buffer bx = upload(dev, x), by = dev.alloc(4 * rows * cols);
  uint64_t m = compile_kernel(dev, "rmsnorm_warp.hip", "rmsnorm", {}, ws);
  int per_block = 128 / ws;
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "float"), ptr(by, "float"), i32(rows), i32(cols)},
                         geometry1((rows + per_block - 1) / per_block, 128))
                  .ok);
  auto y = download<float>(dev, by, rows * cols);
  for (int r = 0; r < rows; ++r) {
    double ss = 0;
    for (int c = 0; c < cols; ++c) ss += double(x[r * cols + c]) * x[r * cols + c];
    double inv = 1 / std::sqrt(ss / cols + 1e-6);
    for (int c = 0; c < cols; ++c) ASSERT_NEAR(y[r * cols + c], x[r * cols + c] * inv, 1e-4);
  }
}

INSTANTIATE_TEST_SUITE_P(WarpSize, Warps, ::testing::Values(32, 64),
                         [](const ::testing::TestParamInfo<int>& i) {
                           return "w" + std::to_string(i.param);
                         });

TEST_F(Sync, SoftmaxInDynamicSharedMemory) {
  const int rows = 6, cols = 300, threads = 128;
  auto x = random_floats(rows * cols, -5, 5);
  Buffer bx = upload(dev, x), by = dev.alloc(4 * rows * cols);
  uint64_t m = compile_kernel(dev, "softmax_dynamic_shared.hip", "softmax");
  auto r = dev.launch(m, {ptr(bx, "float"), ptr(by, "float"), i32(cols)},
                      geometry1(rows, threads, 4 * (cols + threads)));
  ASSERT_TRUE(r.ok) << r.error;
  auto y = download<float>(dev, by, rows * cols);
  for (int i = 0; i < rows; ++i) {
    double mx = -1e30, s = 0;
    for (int c = 0; c < cols; ++c) mx = std::max(mx, double(x[i * cols + c]));
    for (int c = 0; c < cols; ++c) s += std::exp(x[i * cols + c] - mx);
    for (int c = 0; c < cols; ++c)
      ASSERT_NEAR(y[i * cols + c], std::exp(x[i * cols + c] - mx) / s, 1e-6);
  }
}

TEST_F(Sync, HipDynamicSharedAndFileScopeExternShared) {
  const int block = 64, blocks = 5, n = block * blocks;
  std::vector<int> in(n);
  std::iota(in.begin(), in.end(), 0);
  Buffer bi = upload(dev, in), bo = dev.alloc(4 * n), bo2 = dev.alloc(4 * n);
  uint64_t m = compile_kernel(dev, "hip_dynamic_shared.hip", "reverse_chunks");
  ASSERT_TRUE(dev.launch(m, {ptr(bi, "int"), ptr(bo, "int"), ptr(bo2, "int")},
                         geometry1(blocks, block, 4 * block))
                  .ok);
  auto o = download<int>(dev, bo, n), o2 = download<int>(dev, bo2, n);
  for (int i = 0; i < n; ++i) {
    int b = i / block, t = i % block;
    ASSERT_EQ(o[i], b * block + block - 1 - t);
    ASSERT_EQ(o2[i], 2 * (b * block + block - 1 - t));
  }
}

TEST_F(Sync, SyncthreadsCountOrAnd) {
  const int block = 100, blocks = 3;
  std::vector<int> x(block * blocks);
  for (int i = 0; i < block * blocks; ++i) x[i] = (i / block == 1) ? -1 : i % 9 - 2;
  Buffer bx = upload(dev, x), bc = dev.alloc(4 * blocks), bo = dev.alloc(4 * blocks),
         ba = dev.alloc(4 * blocks);
  uint64_t m = compile_kernel(dev, "syncthreads_count.hip", "sync_count");
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "int"), ptr(bc, "int"), ptr(bo, "int"), ptr(ba, "int")},
                         geometry1(blocks, block))
                  .ok);
  auto c = download<int>(dev, bc, blocks), o = download<int>(dev, bo, blocks),
       a = download<int>(dev, ba, blocks);
  for (int b = 0; b < blocks; ++b) {
    int cnt = 0, any = 0, all = 1;
    for (int t = 0; t < block; ++t) {
      int v = x[b * block + t];
      cnt += v > 0, any |= v > 5, all &= v >= 0;
    }
    EXPECT_EQ(c[b], cnt);
    EXPECT_EQ(o[b] != 0, any != 0);
    EXPECT_EQ(a[b] != 0, all != 0);
  }
}

TEST_F(Sync, InclusiveBlockScan) {
  const int block = 512, blocks = 3;
  std::vector<int> x(block * blocks);
  for (int i = 0; i < block * blocks; ++i) x[i] = (i * 13) % 7 - 3;
  Buffer bx = upload(dev, x), bo = dev.alloc(4 * block * blocks);
  uint64_t m = compile_kernel(dev, "scan_block.hip", "scan");
  ASSERT_TRUE(dev.launch(m, {ptr(bx, "int"), ptr(bo, "int")}, geometry1(blocks, block)).ok);
  auto o = download<int>(dev, bo, block * blocks);
  for (int b = 0; b < blocks; ++b) {
    int acc = 0;
    for (int t = 0; t < block; ++t) {
      acc += x[b * block + t];
      ASSERT_EQ(o[b * block + t], acc) << b << "," << t;
    }
  }
}

TEST_F(Sync, LastBlockReductionWithThreadfence) {
  const int n = 50000, blocks = 24;
  auto x = random_floats(n, 0, 1);
  std::vector<unsigned> counter = {0};
  Buffer bx = upload(dev, x), bp = dev.alloc(4 * blocks), bc = upload(dev, counter),
         bt = dev.alloc(4);
  uint64_t m = compile_kernel(dev, "threadfence_last_block.hip", "sum_last_block");
  ASSERT_TRUE(
      dev.launch(
             m, {ptr(bx, "float"), ptr(bp, "float"), ptr(bc, "uint32_t"), ptr(bt, "float"), i32(n)},
             geometry1(blocks, 128))
          .ok);
  EXPECT_NEAR(download<float>(dev, bt, 1)[0], std::accumulate(x.begin(), x.end(), 0.0), 0.05);
  EXPECT_EQ(download<unsigned>(dev, bc, 1)[0], unsigned(blocks));  // every block took one ticket
}

}  // namespace
}  // namespace kta::test
