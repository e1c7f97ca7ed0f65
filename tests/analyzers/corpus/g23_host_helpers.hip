// A launcher whose host-side helpers use numbers that happen to be visible sizes (4096, 64):
// a page size, a scratch buffer, a recursion limit. None of them reaches the kernel or its
// launch geometry, so none is a shape assumption.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstring>

constexpr size_t kPageBytes = 4096;

__global__ void fill(float* y, float v, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = v;
}

// Rounds a byte count up to whole pages.
static size_t page_offset(size_t page) { return page * 4096; }

static size_t round_to_pages(size_t bytes) {
  size_t pages = (bytes + kPageBytes - 1) / kPageBytes;
  return page_offset(pages);
}

// Formats a size as text, splitting it in groups; gives up on absurd nesting.
static void describe(char* out, size_t value, int depth) {
  if (depth > 3) return;
  char buf[4096];
  std::snprintf(buf, sizeof buf, "%zu", value);
  std::strncat(out, buf, 64);
  if (value >= 1000) describe(out, value / 1000, depth + 1);
}

int launch_fill(float* y, float v, long n, hipStream_t stream) {
  char note[64] = {0};
  describe(note, round_to_pages(n * sizeof(float)), 0);
  int block = 256;
  long grid = (n + block - 1) / block;
  fill<<<grid, block, 0, stream>>>(y, v, n);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
