// HIP vector types (char1..double4 and friends), their make_* constructors and elementwise
// arithmetic, on the cpu device. Trivial types, so they can live in __shared__ memory.
#pragma once

#define KTA_VEC1(T, N) \
  struct N##1 { T x; };
#define KTA_VEC2(T, N) \
  struct __attribute__((aligned(2 * sizeof(T)))) N##2 { T x, y; };
#define KTA_VEC3(T, N) \
  struct N##3 { T x, y, z; };
#define KTA_VEC4(T, N) \
  struct __attribute__((aligned(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)))) N##4 { T x, y, z, w; };
#define KTA_VEC_MAKE(T, N)                                          \
  inline N##1 make_##N##1(T x) { return N##1 {x}; }                 \
  inline N##2 make_##N##2(T x, T y) { return N##2 {x, y}; }         \
  inline N##3 make_##N##3(T x, T y, T z) { return N##3 {x, y, z}; } \
  inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4 {x, y, z, w}; }
#define KTA_VEC_OP(N, OP)                                                \
  inline N##2 operator OP(N##2 a, N##2 b) {                              \
    using E = decltype(a.x);                                             \
    return {E(a.x OP b.x), E(a.y OP b.y)};                               \
  }                                                                      \
  inline N##3 operator OP(N##3 a, N##3 b) {                              \
    using E = decltype(a.x);                                             \
    return {E(a.x OP b.x), E(a.y OP b.y), E(a.z OP b.z)};                \
  }                                                                      \
  inline N##4 operator OP(N##4 a, N##4 b) {                              \
    using E = decltype(a.x);                                             \
    return {E(a.x OP b.x), E(a.y OP b.y), E(a.z OP b.z), E(a.w OP b.w)}; \
  }                                                                      \
  inline N##2 & operator OP##=(N##2 & a, N##2 b) { return a = a OP b; }  \
  inline N##3 & operator OP##=(N##3 & a, N##3 b) { return a = a OP b; }  \
  inline N##4 & operator OP##=(N##4 & a, N##4 b) { return a = a OP b; }
#define KTA_VEC_ALL(T, N) \
  KTA_VEC1(T, N)          \
  KTA_VEC2(T, N)          \
  KTA_VEC3(T, N)          \
  KTA_VEC4(T, N)          \
  KTA_VEC_MAKE(T, N)      \
  KTA_VEC_OP(N, +)        \
  KTA_VEC_OP(N, -)        \
  KTA_VEC_OP(N, *)        \
  KTA_VEC_OP(N, /)

KTA_VEC_ALL(signed char, char)
KTA_VEC_ALL(unsigned char, uchar)
KTA_VEC_ALL(short, short)
KTA_VEC_ALL(unsigned short, ushort)
KTA_VEC_ALL(int, int)
KTA_VEC_ALL(unsigned int, uint)
KTA_VEC_ALL(long, long)
KTA_VEC_ALL(unsigned long, ulong)
KTA_VEC_ALL(long long, longlong)
KTA_VEC_ALL(unsigned long long, ulonglong)
KTA_VEC_ALL(float, float)
KTA_VEC_ALL(double, double)

#undef KTA_VEC1
#undef KTA_VEC2
#undef KTA_VEC3
#undef KTA_VEC4
#undef KTA_VEC_MAKE
#undef KTA_VEC_OP
#undef KTA_VEC_ALL

inline float2 operator*(float s, float2 a) { return {s * a.x, s * a.y}; }
inline float4 operator*(float s, float4 a) { return {s * a.x, s * a.y, s * a.z, s * a.w}; }
inline float2 operator*(float2 a, float s) { return {s * a.x, s * a.y}; }
inline float4 operator*(float4 a, float s) { return {s * a.x, s * a.y, s * a.z, s * a.w}; }
