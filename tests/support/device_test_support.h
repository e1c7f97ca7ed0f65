// Helpers for tests that run HIP kernels on the cpu device: typed buffers, argument builders
// and compile-or-fail. The kernels live in tests/device/kernels; compiled objects are cached in
// the build tree so reruns are fast.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "engine/device/device.h"

namespace kta::test {

using namespace kta::engine;

inline std::string kernel_path(const std::string& name) {
  return std::string(KTA_DEVICE_KERNELS) + "/" + name;
}

inline DeviceOptions device_test_options() {
  DeviceOptions o;
  o.cache_dir = KTA_DEVICE_TEST_CACHE;
  o.threads = 2;
  return o;
}

inline KernelArg ptr(Buffer b, const std::string& pointee) {
  KernelArg a;
  a.type = ArgType::ptr;
  a.pointee = pointee;
  a.buffer = b;
  return a;
}
inline KernelArg i32(int64_t v) {
  KernelArg a;
  a.type = ArgType::i32;
  a.scalar.i = v;
  return a;
}
inline KernelArg i64(int64_t v) {
  KernelArg a;
  a.type = ArgType::i64;
  a.scalar.i = v;
  return a;
}
inline KernelArg f32(double v) {
  KernelArg a;
  a.type = ArgType::f32;
  a.scalar.f = v;
  return a;
}

inline LaunchConfig geometry(Dim3 grid, Dim3 block, size_t shared = 0) {
  LaunchConfig c;
  c.grid = grid;
  c.block = block;
  c.shared_bytes = shared;
  return c;
}
inline LaunchConfig geometry1(uint32_t grid, uint32_t block, size_t shared = 0) {
  return geometry(Dim3{grid, 1, 1}, Dim3{block, 1, 1}, shared);
}

template <class T>
Buffer upload(Device& d, const std::vector<T>& v) {
  Buffer b = d.alloc(v.size() * sizeof(T));
  d.upload(b, v.data(), v.size() * sizeof(T));
  return b;
}
template <class T>
std::vector<T> download(Device& d, Buffer b, size_t n) {
  std::vector<T> v(n);
  d.download(v.data(), b, n * sizeof(T));
  return v;
}

// Compiles a kernel of the corpus; fails the test with the compiler log when it does not build.
inline uint64_t compile_kernel(Device& d, const std::string& file, const std::string& entry,
                               const std::vector<KernelArg>& signature = {}, int warp_size = 0,
                               bool sanitize = false) {
  CompileRequest r;
  r.source = kernel_path(file);
  r.entry = entry;
  r.signature = signature;
  r.options.warp_size = warp_size;
  r.options.sanitize = sanitize;
  CompileResult c = d.compile(r);
  EXPECT_TRUE(c.ok) << file << ": " << c.error << "\n" << c.log;
  return c.module;
}
inline uint64_t compile_launcher(Device& d, const std::string& file, int warp_size = 0) {
  CompileRequest r;
  r.source = kernel_path(file);
  r.entry = "kta_launch";
  r.launcher = true;
  r.options.warp_size = warp_size;
  CompileResult c = d.compile(r);
  EXPECT_TRUE(c.ok) << file << ": " << c.error << "\n" << c.log;
  return c.module;
}

// Deterministic pseudo-random floats in [lo, hi).
inline std::vector<float> random_floats(size_t n, float lo, float hi, uint32_t seed = 1) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 1;
  for (float& x : v) {
    s = s * 1664525u + 1013904223u;
    x = lo + (hi - lo) * float(s >> 8) / float(1u << 24);
  }
  return v;
}

}  // namespace kta::test
