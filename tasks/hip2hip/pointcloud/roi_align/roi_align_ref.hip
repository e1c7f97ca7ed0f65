// Reference for the roi_align task: one thread per (box, channel), the definition in double.
// The box's corners are sorted, scaled by 1/stride and shifted by half a pixel (aligned), the
// box is cut into ph x pw bins, and each bin averages sr x sr bilinear samples taken at the
// centres of a regular sr x sr grid inside it. Each output is rounded once to f32.
#include <hip/hip_runtime.h>
#include <math.h>
#include <stdint.h>

// Bilinear interpolation of one channel plane [h, w] at (y, x), with RoIAlign's border rules:
// 0 outside [-1, h] x [-1, w] (never reached here: boxes lie inside the map), coordinates below
// 0 read as 0, and the last row and column extend to the border.
__device__ double bilinear(const float* plane, int64_t h, int64_t w, double y, double x) {
  if (y < -1.0 || y > (double)h || x < -1.0 || x > (double)w) return 0.0;
  if (y < 0.0) y = 0.0;
  if (x < 0.0) x = 0.0;
  int64_t y0 = (int64_t)floor(y), x0 = (int64_t)floor(x);
  int64_t y1 = y0 + 1, x1 = x0 + 1;
  if (y0 >= h - 1) {
    y0 = y1 = h - 1;
    y = (double)y0;
  }
  if (x0 >= w - 1) {
    x0 = x1 = w - 1;
    x = (double)x0;
  }
  const double ly = y - (double)y0, lx = x - (double)x0;
  const double hy = 1.0 - ly, hx = 1.0 - lx;
  return hy * hx * plane[y0 * w + x0] + hy * lx * plane[y0 * w + x1] +
         ly * hx * plane[y1 * w + x0] + ly * lx * plane[y1 * w + x1];
}

__global__ void roi_align_ref(const float* __restrict__ feat, const float* __restrict__ rois,
                              float* __restrict__ out, int64_t n, int64_t c, int64_t h, int64_t w,
                              int64_t p, int64_t ph, int64_t pw, int64_t stride, int64_t sr) {
  const int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;  // (image * p + box) * c + ch
  if (t >= n * p * c) return;
  const int64_t roi = t / c, ch = t % c, img = roi / p;
  const float* box = rois + roi * 4;
  const double scale = 1.0 / (double)stride;
  const double x_lo = fmin(box[0], box[2]) * scale - 0.5, x_hi = fmax(box[0], box[2]) * scale - 0.5;
  const double y_lo = fmin(box[1], box[3]) * scale - 0.5, y_hi = fmax(box[1], box[3]) * scale - 0.5;
  const double bin_w = (x_hi - x_lo) / (double)pw, bin_h = (y_hi - y_lo) / (double)ph;
  const float* plane = feat + (img * c + ch) * h * w;
  float* o = out + t * ph * pw;
  for (int64_t by = 0; by < ph; ++by) {
    for (int64_t bx = 0; bx < pw; ++bx) {
      double sum = 0.0;
      for (int64_t iy = 0; iy < sr; ++iy) {
        const double y = y_lo + (double)by * bin_h + ((double)iy + 0.5) * bin_h / (double)sr;
        for (int64_t ix = 0; ix < sr; ++ix) {
          const double x = x_lo + (double)bx * bin_w + ((double)ix + 0.5) * bin_w / (double)sr;
          sum += bilinear(plane, h, w, y, x);
        }
      }
      o[by * pw + bx] = (float)(sum / (double)(sr * sr));
    }
  }
}
