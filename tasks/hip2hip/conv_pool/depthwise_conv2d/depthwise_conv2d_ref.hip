// Reference for the depthwise_conv2d task: one thread per output element, the plain definition
// of torch.nn.Conv2d(C, C, K, stride=1, padding=K/2, groups=C, bias=True) (cross-correlation,
// zero padding): y[n, c, h, w] = bias[c] + sum over i, j < K of
// weight[c, 0, i, j] * x[n, c, h + i - K/2, w + j - K/2], taps outside the input left out.
// Accumulated in double precision and rounded once to f32.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void depthwise_conv2d_ref(const float* __restrict__ x, const float* __restrict__ weight,
                                     const float* __restrict__ bias, float* __restrict__ y,
                                     int64_t n, int64_t c, int64_t h, int64_t w, int64_t k) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * c * h * w) return;
  const int64_t ow = t % w;
  const int64_t oh = (t / w) % h;
  const int64_t plane = t / (w * h);  // sample * c + channel
  const int64_t ch = plane % c;
  const int64_t pad = k / 2;
  const float* xp = x + plane * h * w;
  const float* wc = weight + ch * k * k;
  double acc = (double)bias[ch];
  for (int64_t i = 0; i < k; ++i) {
    const int64_t ih = oh + i - pad;
    if (ih < 0 || ih >= h) continue;  // zero padding
    for (int64_t j = 0; j < k; ++j) {
      const int64_t iw = ow + j - pad;
      if (iw < 0 || iw >= w) continue;
      acc += (double)wc[i * k + j] * (double)xp[ih * w + iw];
    }
  }
  y[t] = (float)acc;
}
