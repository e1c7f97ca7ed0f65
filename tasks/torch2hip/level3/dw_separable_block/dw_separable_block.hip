// Starter for the dw_separable_block task: a direct HIP translation of the module, correct for
// every size and unoptimized. Two kernels: the first computes the depthwise 3x3 convolution
// (zero padding 1), batch norm 1 and the ReLU, one thread per element of a scratch
// [N, C, H, W] activation, taps straight from global memory; the second computes the pointwise
// 1x1 convolution (a sum over C channels), batch norm 2 and the ReLU, one thread per output.
// Each batch norm is applied as (v - mean) / sqrt(var + eps) * weight + bias.
// Tensors (declaration order): x f32[N, C, H, W], dw_weight f32[C, 1, 3, 3], bn1_mean,
// bn1_var, bn1_weight, bn1_bias f32[C], pw_weight f32[K, C, 1, 1], bn2_mean, bn2_var,
// bn2_weight, bn2_bias f32[K], y f32[N, K, H, W]; params N, C, H, W, K, eps.
#include <hip/hip_runtime.h>
#include <kta/launch.h>
#include <math.h>
#include <stdint.h>

constexpr int kThreads = 256;

__global__ void depthwise_bn_relu(const float* x, const float* dw, const float* mean,
                                  const float* var, const float* weight, const float* bias,
                                  float* a, int64_t N, int64_t C, int64_t H, int64_t W, float eps) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * C * H * W) return;
  const int64_t j = i % W, r = (i / W) % H, c = (i / (W * H)) % C;
  const float* plane = x + (i / (W * H)) * H * W;  // the (n, c) plane
  const float* k = dw + c * 9;
  float acc = 0.0f;
  for (int dy = 0; dy < 3; ++dy) {
    const int64_t rr = r + dy - 1;
    if (rr < 0 || rr >= H) continue;
    for (int dx = 0; dx < 3; ++dx) {
      const int64_t jj = j + dx - 1;
      if (jj < 0 || jj >= W) continue;
      acc += plane[rr * W + jj] * k[dy * 3 + dx];
    }
  }
  const float v = (acc - mean[c]) / sqrtf(var[c] + eps) * weight[c] + bias[c];
  a[i] = fmaxf(v, 0.0f);
}

__global__ void pointwise_bn_relu(const float* a, const float* pw, const float* mean,
                                  const float* var, const float* weight, const float* bias,
                                  float* y, int64_t N, int64_t C, int64_t HW, int64_t K,
                                  float eps) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * K * HW) return;
  const int64_t p = i % HW, k = (i / HW) % K, n = i / (HW * K);
  const float* an = a + n * C * HW + p;
  const float* wk = pw + k * C;
  float acc = 0.0f;
  for (int64_t c = 0; c < C; ++c) acc += wk[c] * an[c * HW];
  const float v = (acc - mean[k]) / sqrtf(var[k] + eps) * weight[k] + bias[k];
  y[i] = fmaxf(v, 0.0f);
}

extern "C" int kta_launch(const kta_call* call) {
  if (call->abi_version != KTA_ABI_VERSION || call->num_tensors != 12 || call->num_params != 6)
    return 1;
  const float* x = (const float*)call->tensors[0].data;
  const float* dw_weight = (const float*)call->tensors[1].data;
  const float* bn1_mean = (const float*)call->tensors[2].data;
  const float* bn1_var = (const float*)call->tensors[3].data;
  const float* bn1_weight = (const float*)call->tensors[4].data;
  const float* bn1_bias = (const float*)call->tensors[5].data;
  const float* pw_weight = (const float*)call->tensors[6].data;
  const float* bn2_mean = (const float*)call->tensors[7].data;
  const float* bn2_var = (const float*)call->tensors[8].data;
  const float* bn2_weight = (const float*)call->tensors[9].data;
  const float* bn2_bias = (const float*)call->tensors[10].data;
  float* y = (float*)call->tensors[11].data;
  const int64_t N = call->params[0].i, C = call->params[1].i, H = call->params[2].i,
                W = call->params[3].i, K = call->params[4].i;
  const float eps = (float)call->params[5].f;
  hipStream_t stream = (hipStream_t)call->stream;
  float* a = nullptr;  // [N, C, H, W]: relu(bn1(depthwise(x)))
  const int64_t na = N * C * H * W, ny = N * K * H * W;
  if (hipMalloc((void**)&a, (size_t)na * sizeof(float)) != hipSuccess) return 3;
  depthwise_bn_relu<<<(unsigned)((na + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      x, dw_weight, bn1_mean, bn1_var, bn1_weight, bn1_bias, a, N, C, H, W, eps);
  pointwise_bn_relu<<<(unsigned)((ny + kThreads - 1) / kThreads), kThreads, 0, stream>>>(
      a, pw_weight, bn2_mean, bn2_var, bn2_weight, bn2_bias, y, N, C, H * W, K, eps);
  const bool ok = hipGetLastError() == hipSuccess;
  hipFree(a);
  return ok ? 0 : 2;
}
