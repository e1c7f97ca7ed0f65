// bfloat16 for the cpu device (__hip_bfloat16, hip_bfloat16, __nv_bfloat16): the top half of a
// float, converted with round-to-nearest-even (NaN kept quiet), arithmetic in float.
#ifndef KTA_HIP_BF16_H
#define KTA_HIP_BF16_H

#include <cstdint>
#include <cstring>

struct __hip_bfloat16 {
  uint16_t data;
  __hip_bfloat16() = default;
  __hip_bfloat16(float f) : data(from_float(f)) {}
  __hip_bfloat16(double f) : data(from_float(static_cast<float>(f))) {}
  __hip_bfloat16(int i) : data(from_float(static_cast<float>(i))) {}
  operator float() const { return to_float(data); }
  static uint16_t from_float(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return static_cast<uint16_t>(u >> 16);
  }
  static float to_float(uint16_t b) {
    uint32_t u = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  __hip_bfloat16& operator+=(__hip_bfloat16 o) {
    return *this = __hip_bfloat16(float(*this) + float(o));
  }
  __hip_bfloat16& operator-=(__hip_bfloat16 o) {
    return *this = __hip_bfloat16(float(*this) - float(o));
  }
  __hip_bfloat16& operator*=(__hip_bfloat16 o) {
    return *this = __hip_bfloat16(float(*this) * float(o));
  }
  __hip_bfloat16& operator/=(__hip_bfloat16 o) {
    return *this = __hip_bfloat16(float(*this) / float(o));
  }
};
typedef __hip_bfloat16 hip_bfloat16;
typedef __hip_bfloat16 __nv_bfloat16;
typedef __hip_bfloat16 bfloat16;

inline __hip_bfloat16 operator+(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) + float(b); }
inline __hip_bfloat16 operator-(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) - float(b); }
inline __hip_bfloat16 operator*(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) * float(b); }
inline __hip_bfloat16 operator/(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) / float(b); }
inline __hip_bfloat16 operator-(__hip_bfloat16 a) { return -float(a); }
inline bool operator<(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) < float(b); }
inline bool operator>(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) > float(b); }
inline bool operator==(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) == float(b); }

inline __hip_bfloat16 __float2bfloat16(float f) { return __hip_bfloat16(f); }
inline __hip_bfloat16 __float2bfloat16_rn(float f) { return __hip_bfloat16(f); }
inline float __bfloat162float(__hip_bfloat16 b) { return float(b); }
inline __hip_bfloat16 __hadd(__hip_bfloat16 a, __hip_bfloat16 b) { return a + b; }
inline __hip_bfloat16 __hsub(__hip_bfloat16 a, __hip_bfloat16 b) { return a - b; }
inline __hip_bfloat16 __hmul(__hip_bfloat16 a, __hip_bfloat16 b) { return a * b; }
inline __hip_bfloat16 __hdiv(__hip_bfloat16 a, __hip_bfloat16 b) { return a / b; }
inline __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return __builtin_fmaf(a, b, c);
}
inline __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) { return a < b ? b : a; }
inline __hip_bfloat16 __hmin(__hip_bfloat16 a, __hip_bfloat16 b) { return b < a ? b : a; }

#endif  // KTA_HIP_BF16_H
