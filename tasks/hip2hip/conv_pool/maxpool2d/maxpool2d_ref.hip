// Reference for the maxpool2d task: one thread per output element, the plain definition of
// torch.nn.MaxPool2d(K, S, P) (dilation 1, ceil_mode False): the maximum of the K x K window
// whose top-left corner is (oh * S - P, ow * S - P), positions outside the input counting as
// -inf (skipped). Every window holds at least one input element (P <= K / 2), so no output is
// -inf. The maximum is a selection, so the result is exact.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__global__ void maxpool2d_ref(const float* __restrict__ x, float* __restrict__ y, int64_t n,
                              int64_t c, int64_t h, int64_t w, int64_t k, int64_t s, int64_t p,
                              int64_t ho, int64_t wo) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n * c * ho * wo) return;
  const int64_t ow = t % wo;
  const int64_t oh = (t / wo) % ho;
  const int64_t plane = t / (wo * ho);  // sample * c + channel
  const float* xp = x + plane * h * w;
  float m = -INFINITY;
  for (int64_t i = 0; i < k; ++i) {
    const int64_t ih = oh * s - p + i;
    if (ih < 0 || ih >= h) continue;  // padding: -inf never wins
    for (int64_t j = 0; j < k; ++j) {
      const int64_t iw = ow * s - p + j;
      if (iw < 0 || iw >= w) continue;
      const float v = xp[ih * w + iw];
      if (v > m) m = v;
    }
  }
  y[t] = m;
}
