// Reference for the avgpool2d task: one thread per output element, the plain definition of
// torch.nn.AvgPool2d(K, S, P, ceil_mode=False, count_include_pad=False): the mean of the inputs
// inside the K x K window whose top-left corner is (oh * S - P, ow * S - P), padded positions
// left out of both the sum and the count. Summed in double precision and rounded once to f32.
#include <hip/hip_runtime.h>
#include <stdint.h>

__global__ void avgpool2d_ref(const float* __restrict__ x, float* __restrict__ y, int64_t n,
                              int64_t c, int64_t h, int64_t w, int64_t k, int64_t s, int64_t p,
                              int64_t ho, int64_t wo) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * c * ho * wo) return;
  const int64_t ow = t % wo;
  const int64_t oh = (t / wo) % ho;
  const int64_t plane = t / (wo * ho);  // sample * c + channel
  const float* xp = x + plane * h * w;
  double sum = 0.0;
  int64_t count = 0;
  for (int64_t i = 0; i < k; ++i) {
    const int64_t ih = oh * s - p + i;
    if (ih < 0 || ih >= h) continue;  // padding: neither summed nor counted
    for (int64_t j = 0; j < k; ++j) {
      const int64_t iw = ow * s - p + j;
      if (iw < 0 || iw >= w) continue;
      sum += (double)xp[ih * w + iw];
      ++count;
    }
  }
  y[t] = (float)(sum / (double)count);  // count >= 1: P <= K / 2
}
