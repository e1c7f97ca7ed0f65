// HIP atomics on the cpu device, over std::atomic_ref. Blocks run on several OS threads, so
// these are real atomics; the _block/_system scoped names behave like the device-wide ones.
#pragma once

#include <atomic>

namespace kta_rt {
template <class T>
inline std::atomic_ref<T> aref(T* p) {
  return std::atomic_ref<T>(*p);
}
template <class T>
inline T atomic_min(T* p, T v) {
  auto a = aref(p);
  T old = a.load(std::memory_order_relaxed);
  while (v < old && !a.compare_exchange_weak(old, v, std::memory_order_relaxed)) {
  }
  return old;
}
template <class T>
inline T atomic_max(T* p, T v) {
  auto a = aref(p);
  T old = a.load(std::memory_order_relaxed);
  while (old < v && !a.compare_exchange_weak(old, v, std::memory_order_relaxed)) {
  }
  return old;
}
}  // namespace kta_rt

#define KTA_ATOMIC_INT(T)                                                  \
  inline T atomicAdd(T* p, T v) { return ::kta_rt::aref(p).fetch_add(v); } \
  inline T atomicSub(T* p, T v) { return ::kta_rt::aref(p).fetch_sub(v); } \
  inline T atomicAnd(T* p, T v) { return ::kta_rt::aref(p).fetch_and(v); } \
  inline T atomicOr(T* p, T v) { return ::kta_rt::aref(p).fetch_or(v); }   \
  inline T atomicXor(T* p, T v) { return ::kta_rt::aref(p).fetch_xor(v); } \
  inline T atomicExch(T* p, T v) { return ::kta_rt::aref(p).exchange(v); } \
  inline T atomicMin(T* p, T v) { return ::kta_rt::atomic_min(p, v); }     \
  inline T atomicMax(T* p, T v) { return ::kta_rt::atomic_max(p, v); }     \
  inline T atomicCAS(T* p, T cmp, T v) {                                   \
    ::kta_rt::aref(p).compare_exchange_strong(cmp, v);                     \
    return cmp;                                                            \
  }                                                                        \
  inline T atomicAdd_block(T* p, T v) { return atomicAdd(p, v); }          \
  inline T atomicAdd_system(T* p, T v) { return atomicAdd(p, v); }         \
  inline T atomicCAS_block(T* p, T c, T v) { return atomicCAS(p, c, v); }  \
  inline T atomicCAS_system(T* p, T c, T v) { return atomicCAS(p, c, v); }

KTA_ATOMIC_INT(int)
KTA_ATOMIC_INT(unsigned int)
KTA_ATOMIC_INT(long long)
KTA_ATOMIC_INT(unsigned long long)
#undef KTA_ATOMIC_INT

#define KTA_ATOMIC_FLOAT(T)                                                \
  inline T atomicAdd(T* p, T v) { return ::kta_rt::aref(p).fetch_add(v); } \
  inline T atomicSub(T* p, T v) { return ::kta_rt::aref(p).fetch_sub(v); } \
  inline T atomicExch(T* p, T v) { return ::kta_rt::aref(p).exchange(v); } \
  inline T atomicMin(T* p, T v) { return ::kta_rt::atomic_min(p, v); }     \
  inline T atomicMax(T* p, T v) { return ::kta_rt::atomic_max(p, v); }     \
  inline T atomicAdd_block(T* p, T v) { return atomicAdd(p, v); }          \
  inline T atomicAdd_system(T* p, T v) { return atomicAdd(p, v); }         \
  inline T unsafeAtomicAdd(T* p, T v) { return atomicAdd(p, v); }

KTA_ATOMIC_FLOAT(float)
KTA_ATOMIC_FLOAT(double)
#undef KTA_ATOMIC_FLOAT

inline unsigned atomicInc(unsigned* p, unsigned limit) {
  auto a = ::kta_rt::aref(p);
  unsigned old = a.load();
  while (!a.compare_exchange_weak(old, old >= limit ? 0u : old + 1)) {
  }
  return old;
}
inline unsigned atomicDec(unsigned* p, unsigned limit) {
  auto a = ::kta_rt::aref(p);
  unsigned old = a.load();
  while (!a.compare_exchange_weak(old, (old == 0 || old > limit) ? limit : old - 1)) {
  }
  return old;
}
