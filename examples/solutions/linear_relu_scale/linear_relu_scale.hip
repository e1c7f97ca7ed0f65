// A faster linear_relu_scale, general in B, D and H (any size, no alignment assumed): a
// shared-memory tiled GEMM with the bias, the ReLU and the scale fused into its epilogue, so the
// pre-activation never goes to memory (PyTorch writes it and reads it back twice). A block of
// 16 x 16 threads computes a TILE x TILE tile of y, each thread an R x R register tile
// (R = TILE / 16) with rows and columns strided by 16, so that the stores of a row of threads are
// contiguous. D advances in slices of BK: a TILE x BK slice of x and of w is staged in shared
// memory (transposed, zero-filled past the edges), so each loaded value is used TILE times
// instead of once; two barriers per slice. Small problems get 32 x 32 tiles with 64-wide slices
// (4x more blocks to fill the GPU), large ones 64 x 64 tiles with 16-wide slices, which reuse
// each value twice as often. No lane math: any warp size.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <stdint.h>

constexpr int T = 16;  // threads per block side

template <int TILE, int BK>
__global__ __launch_bounds__(T* T) void linear_relu_scale(const float* __restrict__ x,
                                                          const float* __restrict__ w,
                                                          const float* __restrict__ b,
                                                          float* __restrict__ y, int64_t B,
                                                          int64_t D, int64_t H, float scale) {
  constexpr int R = TILE / T;
  __shared__ float xs[BK][TILE + 1];
  __shared__ float ws[BK][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * T + tx;
  const int64_t h0 = (int64_t)blockIdx.x * TILE;
  // Row tiles on grid y, strided by gridDim.y (at most 65535) so that any B is covered.
  for (int64_t r0 = (int64_t)blockIdx.y * TILE; r0 < B; r0 += (int64_t)gridDim.y * TILE) {
    float acc[R][R];
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < R; ++j) acc[i][j] = 0.0f;

    for (int64_t k0 = 0; k0 < D; k0 += BK) {
      // TILE x BK values of each operand; consecutive threads read consecutive k.
      for (int l = tid; l < TILE * BK; l += T * T) {
        const int row = l / BK, kk = l % BK;
        const int64_t k = k0 + kk;
        xs[kk][row] = (r0 + row < B && k < D) ? x[(r0 + row) * D + k] : 0.0f;
        ws[kk][row] = (h0 + row < H && k < D) ? w[(h0 + row) * D + k] : 0.0f;
      }
      __syncthreads();
      for (int kk = 0; kk < BK; ++kk) {
        float xv[R], wv[R];
        for (int i = 0; i < R; ++i) xv[i] = xs[kk][ty + i * T];
        for (int j = 0; j < R; ++j) wv[j] = ws[kk][tx + j * T];
        for (int i = 0; i < R; ++i)
          for (int j = 0; j < R; ++j) acc[i][j] += xv[i] * wv[j];
      }
      __syncthreads();
    }

    for (int i = 0; i < R; ++i) {
      const int64_t r = r0 + ty + i * T;
      if (r >= B) break;
      for (int j = 0; j < R; ++j) {
        const int64_t h = h0 + tx + j * T;
        if (h >= H) break;
        const float z = acc[i][j] + b[h];
        y[r * H + h] = fmaxf(z, 0.0f) * scale;
      }
    }
  }
}

template <int TILE, int BK>
void launch(const float* x, const float* w, const float* b, float* y, int64_t B, int64_t D,
            int64_t H, float scale, hipStream_t stream) {
  // Output features on grid x (up to 2^31 - 1 tiles), row tiles on grid y (at most 65535; the
  // kernel strides over the rest).
  const int64_t row_tiles = (B + TILE - 1) / TILE;
  dim3 grid((unsigned)((H + TILE - 1) / TILE), (unsigned)(row_tiles < 65535 ? row_tiles : 65535));
  linear_relu_scale<TILE, BK><<<grid, dim3(T, T), 0, stream>>>(x, w, b, y, B, D, H, scale);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 4 || call->num_params != 4)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w = (const float*)call->tensors[1].data;
  const float* b = (const float*)call->tensors[2].data;
  float* y = (float*)call->tensors[3].data;
  const int64_t B = call->params[0].i, D = call->params[1].i, H = call->params[2].i;
  const float scale = (float)call->params[3].f;
  hipStream_t stream = (hipStream_t)call->stream;
  // 64 x 64 tiles once they still give a few hundred blocks; 32 x 32 below that.
  if (B * H >= (int64_t)(1 << 20))
    launch<64, 16>(x, w, b, y, B, D, H, scale, stream);
  else
    launch<32, 64>(x, w, b, y, B, D, H, scale, stream);
  return hipGetLastError() == hipSuccess ? 0 : 2;
}
