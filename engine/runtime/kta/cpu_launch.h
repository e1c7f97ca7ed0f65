// Launching on the cpu device: the `<<<grid, block, shmem, stream>>>` form (the cpu device
// rewrites it into kta_rt::launch_chevron), hipLaunchKernelGGL, and the kernel-mode entry the
// generated trampoline exports. A launch packs the arguments into a closure and hands the
// runtime a block function: a plain loop over the block's threads, or the fiber scheduler when
// the source synchronizes (KTA_FIBERS).
#pragma once

#include <tuple>
#include <type_traits>
#include <utility>

namespace kta_rt {

struct LaunchCfg {
  dim3 grid;
  dim3 block;
  size_t shared;
  hipStream_t stream;
  LaunchCfg(dim3 g, dim3 b, size_t s = 0, hipStream_t st = nullptr)
      : grid(g), block(b), shared(s), stream(st) {}
};

// `extern __shared__ T name[];` at namespace scope, rewritten: a view of the running block's
// dynamic shared memory that behaves like the array.
template <class T>
struct DynamicShared {
  T* get() const { return static_cast<T*>(tls.dynamic_shared); }
  operator T*() const { return get(); }
  template <class I>
  T& operator[](I i) const {
    return get()[i];
  }
  template <class U>
  explicit operator U*() const {
    return reinterpret_cast<U*>(get());
  }
};

// A block whose threads never synchronize: a loop over its threads. The closure is copied so its
// arguments stay in registers, and the kernel inlines into the loop.
template <class F>
void loop_block(void* closure) {
  F f = *static_cast<F*>(closure);
  ThreadState& t = tls;
  const dim3 bd = t.block_dim;
  for (uint32_t z = 0; z < bd.z; ++z) {
    t.thread_idx.z = z;
    for (uint32_t y = 0; y < bd.y; ++y) {
      t.thread_idx.y = y;
      for (uint32_t x = 0; x < bd.x; ++x) {
        t.thread_idx.x = x;
        f();
      }
    }
  }
}
template <class F>
void fiber_thread(void* closure) {
  (*static_cast<F*>(closure))();
}
template <class F>
void fiber_block(void* closure) {
  kta_rt_run_fibers(&fiber_thread<F>, closure);
}

template <class F>
inline int run_grid(const char* name, dim3 grid, dim3 block, size_t shared, F& body) {
  LaunchDesc d{grid,  block, shared, KTA_WARP_SIZE, KTA_FIBERS ? &fiber_block<F> : &loop_block<F>,
               &body, name};
  return kta_rt_launch(&d);
}

// `name`: the kernel as the launch wrote it, for messages.
template <class K, class... A>
inline hipError_t launch_chevron(const char* name, K&& kernel, LaunchCfg cfg, A&&... a) {
  std::tuple<std::decay_t<A>...> args(std::forward<A>(a)...);
  auto body = [kernel, args]() mutable { std::apply(kernel, args); };
  if (run_grid(name, cfg.grid, cfg.block, cfg.shared, body) != 0) {
    set_last_error(hipErrorLaunchFailure);
    return hipErrorLaunchFailure;
  }
  return hipSuccess;
}

// ---- kernel mode: the trampoline's entry --------------------------------------------------
template <class T>
constexpr const char* type_name() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>)
    return "bool";
  else if constexpr (std::is_same_v<U, char> || std::is_same_v<U, signed char>)
    return "i8";
  else if constexpr (std::is_same_v<U, unsigned char>)
    return "u8";
  else if constexpr (std::is_same_v<U, short>)
    return "i16";
  else if constexpr (std::is_same_v<U, unsigned short>)
    return "u16";
  else if constexpr (std::is_same_v<U, int>)
    return "i32";
  else if constexpr (std::is_same_v<U, unsigned>)
    return "u32";
  else if constexpr (std::is_same_v<U, long>)
    return "i64";
  else if constexpr (std::is_same_v<U, unsigned long>)
    return "u64";
  // Same codes as long, marked so that messages spell the kernel's type as written.
  else if constexpr (std::is_same_v<U, long long>)
    return "i64ll";
  else if constexpr (std::is_same_v<U, unsigned long long>)
    return "u64ll";
  else if constexpr (std::is_same_v<U, float>)
    return "f32";
  else if constexpr (std::is_same_v<U, double>)
    return "f64";
  else if constexpr (std::is_same_v<U, __half>)
    return "f16";
  else if constexpr (std::is_same_v<U, __half2>)
    return "f16x2";
  else if constexpr (std::is_same_v<U, __hip_bfloat16>)
    return "bf16";
  else if constexpr (std::is_same_v<U, void>)
    return "void";
  else if constexpr (std::is_same_v<U, float2>)
    return "f32x2";
  else if constexpr (std::is_same_v<U, float4>)
    return "f32x4";
  else if constexpr (std::is_same_v<U, double2>)
    return "f64x2";
  else if constexpr (std::is_same_v<U, int2>)
    return "i32x2";
  else if constexpr (std::is_same_v<U, int4>)
    return "i32x4";
  else if constexpr (std::is_same_v<U, uchar4>)
    return "u8x4";
  else if constexpr (std::is_same_v<U, char4>)
    return "i8x4";
  else
    return "?";
}
// One parameter as "TYPE" for scalars, "*TYPE" or "*const TYPE" for pointers.
template <class P>
inline void append_param(char*& out, const char* end) {
  auto put = [&](const char* s) {
    while (*s && out < end) *out++ = *s++;
  };
  if constexpr (std::is_pointer_v<P>) {
    using E = std::remove_pointer_t<P>;
    put("*");
    if constexpr (std::is_const_v<E>) put("const ");
    if constexpr (std::is_pointer_v<E>)
      put("ptr");
    else
      put(type_name<E>());
  } else if constexpr (std::is_reference_v<P>) {
    put("&");
  } else {
    put(type_name<P>());
  }
  put(",");
}

template <auto K>
struct Entry;
template <class... P, void (*K)(P...)>
struct Entry<K> {
  // "i32,*const f32,..." — the kernel's parameter types, checked by the device against the task.
  static const char* signature() {
    static char buf[1024];
    char* out = buf;
    (append_param<P>(out, buf + sizeof(buf) - 1), ...);
    *out = 0;
    return buf;
  }
  template <size_t... I>
  static int launch(const char* name, void* const* a, dim3 g, dim3 b, size_t shared,
                    std::index_sequence<I...>) {
    std::tuple<std::remove_cv_t<std::remove_reference_t<P>>...> args(
        *static_cast<std::remove_cv_t<std::remove_reference_t<P>>*>(a[I])...);
    auto body = [args]() mutable { K(std::get<I>(args)...); };
    return run_grid(name, g, b, shared, body);
  }
  static int launch(const char* name, void* const* a, dim3 g, dim3 b, size_t shared) {
    return launch(name, a, g, b, shared, std::index_sequence_for<P...>{});
  }
};

}  // namespace kta_rt

#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...) \
  ::kta_rt::launch_chevron(                                          \
      #kernel, [&](auto&&... kta_a) { kernel(kta_a...); },           \
      ::kta_rt::LaunchCfg((grid), (block), (shared), (stream)), ##__VA_ARGS__)
#define hipLaunchKernelEx hipLaunchKernelGGL
