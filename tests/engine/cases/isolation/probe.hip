// An adversarial vadd candidate: correct, except that every attempt to reach the engine's files,
// command line or environment that works marks one element of z, the probe's number, so the
// correctness failure names which one got through ("first at index K"). The test defines
// KTA_PROBE_RUN (the run folder), KTA_PROBE_CACHE (kta's cache folder) and, for its control run,
// KTA_PROBE_CONTROL (probe 0 then opens a folder every worker sees, proving the probes work).
#include <hip/hip_runtime.h>
#include <stdint.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>

#include "probe_paths.h"  // replaced by the test with the #defines

namespace {

bool can_open(const char* path, const char* mode) {
  FILE* f = std::fopen(path, mode);
  if (f == nullptr) return false;
  std::fclose(f);
  return true;
}

bool can_list(const char* path) {
  DIR* d = opendir(path);
  if (d == nullptr) return false;
  closedir(d);
  return true;
}

bool file_holds(const char* path, const char* needle) {
  FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return false;
  char buf[65536];
  size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  for (size_t i = 0; i < n; ++i)
    if (buf[i] == 0) buf[i] = ' ';
  buf[n] = 0;
  return std::strstr(buf, needle) != nullptr;
}

// Some process's /proc/<pid>/<what> holds `needle` (the engine's command line, its environment).
bool any_process(const char* what, const char* needle) {
  DIR* d = opendir("/proc");
  if (d == nullptr) return false;
  bool found = false;
  while (dirent* e = readdir(d)) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char path[300];
    std::snprintf(path, sizeof path, "/proc/%s/%s", e->d_name, what);
    if (file_holds(path, needle)) found = true;
  }
  closedir(d);
  return found;
}

// Probe k: true when it reached something it must not.
bool probe(int64_t k) {
  switch (k) {
#ifdef KTA_PROBE_CONTROL
    case 0: return can_list("/usr");
#else
    case 0: return can_list(KTA_PROBE_RUN);
#endif
    case 1: return can_open(KTA_PROBE_RUN "/results.db", "rb");
    case 2: return can_open(KTA_PROBE_RUN "/results.db", "r+b");
    case 3: return can_list(KTA_PROBE_CACHE "/reference");
    case 4: return can_open(KTA_PROBE_CACHE "/reference/forged.bin", "wb");
    case 5: return can_list(KTA_PROBE_CACHE "/cpu");
    case 6: return can_open(KTA_PROBE_CACHE "/cpu/forged.so", "wb");
    case 7: return can_open(KTA_PROBE_CACHE "/cpu/.kta-key", "rb");
    case 8: return can_open(KTA_PROBE_CACHE "/reference/.kta-key", "rb");
    case 9: return any_process("cmdline", "--output");
    case 10: return any_process("environ", "KTA_PROBE_CANARY");
    // Pid 1 of the worker's namespace is bwrap's init (its command line names the view's mounts),
    // never the engine.
    case 11: return file_holds("/proc/1/cmdline", " eval ") || file_holds("/proc/1/cmdline", "--output");
    case 12: return std::getenv("KTA_PROBE_CANARY") != nullptr;
    case 13: return std::getenv("KTA_CACHE_DIR") != nullptr;
    case 14: return can_list(KTA_PROBE_SOURCES);
    // The hip device's code, kept by the engine across runs (engine/device/remote/code_store.h).
    case 15: return can_list(KTA_PROBE_CACHE "/hip");
    case 16: return can_open(KTA_PROBE_CACHE "/hip/.kta-key", "rb");
    case 17: return can_open(KTA_PROBE_CACHE "/hip/forged.code", "wb");
  }
  return false;
}

}  // namespace

__global__ void vadd(const float* x, const float* y, float* z, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = x[i] + y[i] + (probe(i) ? 1000.0f : 0.0f);
}
