// The C library's constants used bare, with no #include, as HIP's headers let device code use
// them (hipcc's runtime wrapper includes <cmath>, <cfloat>, <climits> and <cstdint>).
__global__ void c_constants(float* f, double* d, int* i, long long* l) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  float m = -INFINITY;  // the start of a max reduction
  f[0] = m;
  f[1] = NAN;
  f[2] = HUGE_VALF;
  f[3] = FLT_MAX;
  f[4] = FLT_MIN;
  f[5] = FLT_EPSILON;
  f[6] = (float)M_PI;
  f[7] = (float)M_SQRT1_2;
  d[0] = DBL_MAX;
  d[1] = DBL_MIN;
  d[2] = HUGE_VAL;
  d[3] = DBL_EPSILON;
  i[0] = INT_MAX;
  i[1] = INT_MIN;
  i[2] = CHAR_BIT;
  i[3] = INT32_MAX;
  i[4] = UINT_MAX == 0xffffffffu;
  i[5] = FLT_MANT_DIG;
  l[0] = LLONG_MAX;
  l[1] = INT64_MIN;
}
