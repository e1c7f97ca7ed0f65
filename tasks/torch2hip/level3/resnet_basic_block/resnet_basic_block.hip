// Starter for the resnet_basic_block task: a direct HIP translation of the PyTorch module, one
// simple kernel per step, correct for every size and unoptimized. A scratch buffer (hipMalloc)
// holds the first convolution's activations t [N, C, H, W]:
//   1. conv1: one thread per output element loops over the C x 3 x 3 window straight from
//      global memory, checking the padding on every tap (nothing reused between threads);
//   2. bn1 + relu: in place over t, one thread per element;
//   3. conv2: the same convolution kernel, from t into y;
//   4. bn2 + residual + relu: in place over y, y = relu(bn2(y) + x).
// Tensors (declaration order): x f32[N, C, H, W], w1 f32[C, C, 3, 3], bn1_mean, bn1_var,
// bn1_weight, bn1_bias f32[C], w2 f32[C, C, 3, 3], bn2_mean, bn2_var, bn2_weight, bn2_bias
// f32[C], y f32[N, C, H, W]; params N, C, H, W, eps.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

// out[n, k, i, j] = sum_{c, dy, dx} in[n, c, i + dy - 1, j + dx - 1] w[k, c, dy, dx], zero padded.
__global__ void conv3x3(const float* in, const float* w, float* out, int64_t N, int64_t C,
                        int64_t H, int64_t W) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * C * H * W) return;
  const int64_t ox = idx % W, oy = (idx / W) % H, k = (idx / (W * H)) % C, n = idx / (W * H * C);
  float acc = 0.0f;
  for (int64_t c = 0; c < C; ++c) {
    const float* ic = in + (n * C + c) * H * W;
    const float* wc = w + (k * C + c) * 9;
    for (int dy = 0; dy < 3; ++dy) {
      const int64_t iy = oy + dy - 1;
      if (iy < 0 || iy >= H) continue;
      for (int dx = 0; dx < 3; ++dx) {
        const int64_t ix = ox + dx - 1;
        if (ix < 0 || ix >= W) continue;
        acc += ic[iy * W + ix] * wc[dy * 3 + dx];
      }
    }
  }
  out[idx] = acc;
}

// t = relu((t - mean[c]) / sqrt(var[c] + eps) * weight[c] + bias[c]), plus a residual if given.
__global__ void bn_relu(float* t, const float* residual, const float* mean, const float* var,
                        const float* weight, const float* bias, int64_t N, int64_t C, int64_t HW,
                        float eps) {
  const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * C * HW) return;
  const int64_t c = (idx / HW) % C;
  float v = (t[idx] - mean[c]) / sqrtf(var[c] + eps) * weight[c] + bias[c];
  if (residual != nullptr) v += residual[idx];
  t[idx] = fmaxf(v, 0.0f);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 12 || call->num_params != 5)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* w1 = (const float*)call->tensors[1].data;
  const float* bn1_mean = (const float*)call->tensors[2].data;
  const float* bn1_var = (const float*)call->tensors[3].data;
  const float* bn1_weight = (const float*)call->tensors[4].data;
  const float* bn1_bias = (const float*)call->tensors[5].data;
  const float* w2 = (const float*)call->tensors[6].data;
  const float* bn2_mean = (const float*)call->tensors[7].data;
  const float* bn2_var = (const float*)call->tensors[8].data;
  const float* bn2_weight = (const float*)call->tensors[9].data;
  const float* bn2_bias = (const float*)call->tensors[10].data;
  float* y = (float*)call->tensors[11].data;
  const int64_t N = call->params[0].i, C = call->params[1].i, H = call->params[2].i;
  const int64_t W = call->params[3].i;
  const float eps = (float)call->params[4].f;
  hipStream_t stream = (hipStream_t)call->stream;

  const int64_t total = N * C * H * W;
  const unsigned blocks = (unsigned)((total + kThreads - 1) / kThreads);
  float* t = nullptr;
  if (hipMalloc((void**)&t, total * sizeof(float)) != hipSuccess) return 3;
  conv3x3<<<blocks, kThreads, 0, stream>>>(x, w1, t, N, C, H, W);
  bn_relu<<<blocks, kThreads, 0, stream>>>(t, nullptr, bn1_mean, bn1_var, bn1_weight, bn1_bias, N,
                                           C, H * W, eps);
  conv3x3<<<blocks, kThreads, 0, stream>>>(t, w2, y, N, C, H, W);
  bn_relu<<<blocks, kThreads, 0, stream>>>(y, x, bn2_mean, bn2_var, bn2_weight, bn2_bias, N, C,
                                           H * W, eps);
  const bool launched = hipGetLastError() == hipSuccess;
  const bool freed = hipFree(t) == hipSuccess;
  return launched && freed ? 0 : 2;
}
