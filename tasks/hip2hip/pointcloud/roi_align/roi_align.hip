// Baseline for the roi_align task, the structure of the common GPU implementations: one thread
// per output element (grid ceil(N*P*C*PH*PW / 256), block 256), decoded in the output's order
// (box, channel, bin row, bin column) in 32-bit index arithmetic (fewer than 2^31 outputs). Each
// thread reads its box, computes the bin's sr x sr sample positions and bilinear weights in f32
// and gathers 4 feature values per sample. The positions and weights depend only on the box and
// the bin, yet every channel recomputes them, and neighbouring threads gather from one plane.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

__device__ float bilinear(const float* plane, int h, int w, float y, float x) {
  if (y < -1.0f || y > (float)h || x < -1.0f || x > (float)w) return 0.0f;
  y = fmaxf(y, 0.0f);
  x = fmaxf(x, 0.0f);
  int y0 = (int)y, x0 = (int)x;  // truncation is floor here: y, x >= 0
  int y1, x1;
  if (y0 >= h - 1) {
    y0 = y1 = h - 1;
    y = (float)y0;
  } else {
    y1 = y0 + 1;
  }
  if (x0 >= w - 1) {
    x0 = x1 = w - 1;
    x = (float)x0;
  } else {
    x1 = x0 + 1;
  }
  const float ly = y - (float)y0, lx = x - (float)x0;
  const float hy = 1.0f - ly, hx = 1.0f - lx;
  return hy * hx * plane[y0 * w + x0] + hy * lx * plane[y0 * w + x1] +
         ly * hx * plane[y1 * w + x0] + ly * lx * plane[y1 * w + x1];
}

__global__ void roi_align(const float* feat, const float* rois, float* out, int64_t n, int64_t c,
                          int64_t h, int64_t w, int64_t p, int64_t ph, int64_t pw, int64_t stride,
                          int64_t sr) {
  const int total = (int)(n * p * c * ph * pw);  // fewer than 2^31 outputs
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= total) return;
  const int bins = (int)(ph * pw);
  const int bx = t % (int)pw, by = (t % bins) / (int)pw;
  const int roi_ch = t / bins;  // roi * c + ch
  const int ch = roi_ch % (int)c, roi = roi_ch / (int)c;
  const int img = roi / (int)p;
  const float* box = rois + roi * 4;
  const float scale = 1.0f / (float)stride;
  const float x_lo = fminf(box[0], box[2]) * scale - 0.5f;
  const float x_hi = fmaxf(box[0], box[2]) * scale - 0.5f;
  const float y_lo = fminf(box[1], box[3]) * scale - 0.5f;
  const float y_hi = fmaxf(box[1], box[3]) * scale - 0.5f;
  const float bin_w = (x_hi - x_lo) / (float)pw, bin_h = (y_hi - y_lo) / (float)ph;
  const float* plane = feat + ((int64_t)img * c + ch) * h * w;
  float sum = 0.0f;
  for (int iy = 0; iy < (int)sr; ++iy) {
    const float y = y_lo + by * bin_h + (iy + 0.5f) * bin_h / (float)sr;
    for (int ix = 0; ix < (int)sr; ++ix) {
      const float x = x_lo + bx * bin_w + (ix + 0.5f) * bin_w / (float)sr;
      sum += bilinear(plane, (int)h, (int)w, y, x);
    }
  }
  out[t] = sum / (float)(sr * sr);
}
