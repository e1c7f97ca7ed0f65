// Included by launcher_include_error.hip: a compile error on line 8 of this file.
__global__ void fill(float* y, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = 1;
}

int launch_fill(float* y, long n) {
  fill<<<(n + 63) / 64, 64>>>(y, n + undeclared_offset);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}
