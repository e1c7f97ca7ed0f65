// Included by launcher_include_malformed.hip: a launch without its arguments on line 5.
__global__ void fill(float* y) { y[threadIdx.x] = 1; }

int launch_fill(float* y) {
  fill<<<1, 64>>>;
  return 0;
}
