// An inclusive scan of one warp's values with __shfl_up, for any warp size (included by
// scan_passes.hip from its own folder).
#pragma once

template <class T>
__device__ T warp_inclusive_scan(T v) {
  const int lane = __lane_id();
  for (int o = 1; o < warpSize; o <<= 1) {
    T up = __shfl_up(v, o);
    if (lane >= o) v += up;
  }
  return v;
}
